"""PPO by self-play over a batch of games, every step of it one compiled JAX function.

Every game of the batch is played by the policy being trained in every
seat (self-play), except in league games, where one seat is the learner and
the others a frozen past version (the `league_share` of the games that are
neither scripted nor random, right after them); in scripted games (the first
`scripted_share` of the batch), where one seat is the learner and the others
the game's scripted player (`scripted.ScriptedSeats`: its JAX twin where the
game has one, else Python called from the compiled rollout); and in random
games (the next `random_share`), where the others draw uniformly among their
legal moves, so that the learner keeps beating weak play while it learns to
exploit the scripted player. Every decision of a learner seat is a training
sample. With `role_weight` the loss also teaches an auxiliary head to
predict the true roles from the policy's features (the policy still never
reads them).
A seat's return is what the game pays that seat from its decision to its
next one, then onwards (generalised advantage estimation along each seat's
own decisions: the other seats' moves in between are part of its
environment). A game whose learner seats are all out before its end (Hoax's
accusations) is dealt again at once: the rest of it would teach nothing,
and in scripted games it would cost the scripted player's time.

`Trainer.iteration` plays `steps` moves in each of `games` games (the
rollout), then runs `epochs` passes of PPO over the learner's samples in
`minibatches`: the other seats' decisions (four in five of a league game's,
at five players) are set aside before the update, which reads a fixed number
of rows (`update_rows`), so that it is compiled once, and again only where a
rollout holds more learner decisions than that and widens it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

from hidden_role_envs.core.batched import BatchedEnv
from hidden_role_envs.training.selfplay import network
from hidden_role_envs.training.selfplay.scripted import ScriptedPrior, ScriptedSeats


@dataclass(frozen=True)
class Settings:
    games: int = 256  # games played side by side
    steps: int = 64  # moves of each game per rollout
    epochs: int = 4
    minibatches: int = 4
    learning_rate: float = 3e-4
    clip: float = 0.2
    entropy: float = 0.01
    value_weight: float = 0.5
    gamma: float = 1.0  # one episode is one game, and what counts is how it ends
    gae_lambda: float = 0.95
    scripted_share: float = 0.0  # share of games where the other seats are the scripted player
    random_share: float = 0.0  # share of games where the other seats play uniformly at random
    league_share: float = 0.5  # share of the remaining games where they are a frozen past version
    max_grad_norm: float = 0.5
    critic_sees_roles: bool = False  # the value head also reads the true roles (training only)
    role_weight: float = 0.0  # weight of the auxiliary head's loss, predicting the true roles (0: no such head)

    def __post_init__(self):
        check_shares(self.scripted_share, self.random_share)


def check_shares(scripted_share: float, random_share: float) -> None:
    """The scripted and random games are cut from one batch, so their shares cannot exceed it."""
    if scripted_share + random_share > 1:
        raise ValueError(f"the scripted and random shares add up to at most 1, got {scripted_share:g} + "
                         f"{random_share:g}")


UPDATE_MARGIN = 1.15  # room above the learner's expected share of a rollout's decisions (see `update_rows`)


class Samples(NamedTuple):
    observation: jax.Array
    roles: jax.Array  # the true roles, if the critic or the role head reads them, else nothing
    mask: jax.Array
    action: jax.Array
    log_prob: jax.Array
    value: jax.Array
    actor: jax.Array
    learner: jax.Array  # the decision is the learner's (a sample to learn from)
    rewards: jax.Array  # (seats,) paid by this step
    done: jax.Array  # the game ended at this step
    prior: jax.Array  # the scripted prior's features, if the policy reads them, else nothing


class Carry(NamedTuple):
    state: Any  # the batch of games
    learner_seats: jax.Array  # (games, seats) bool: which seats the learner plays
    key: jax.Array
    returns: jax.Array  # (games, seats) what each seat was paid so far this episode
    finished: jax.Array  # games finished in this rollout, their learner seats' returns summed
    finished_return: jax.Array
    scripted_finished: jax.Array  # the same, of the scripted games alone
    scripted_return: jax.Array


class Trainer:
    def __init__(self, env: BatchedEnv, arch: network.Architecture, settings: Settings, seed: int = 0,
                 processes: int = 1):
        self.env = env
        self.arch = arch
        self.s = settings
        self.num_players = env.num_players
        self.scripted_games = round(settings.scripted_share * settings.games)
        # the shares add up to at most 1 (checked in ppo.Settings); the min only absorbs rounding
        self.random_games = min(round(settings.random_share * settings.games), settings.games - self.scripted_games)
        # the rows of league games: the frozen policy's network runs on them alone
        fixed = self.scripted_games + self.random_games
        self.league_rows = slice(fixed, fixed + round(settings.league_share * (settings.games - fixed)))
        self.scripted = ScriptedSeats(env, seed, processes) if self.scripted_games else None
        self.prior = ScriptedPrior(env.definition, env.config) if arch.scripted_prior else None
        self.update_rows = update_rows(settings, self.league_rows.stop, env.num_players, env.game.seats_leave)
        self.optimizer = optax.chain(optax.clip_by_global_norm(settings.max_grad_norm), optax.adam(settings.learning_rate))
        self._compiled = jax.jit(self._iteration)

    def iteration(self, run: dict) -> tuple[dict, dict]:
        """One rollout and its update. Where the rollout held more learner decisions than the update reads, the
        next iterations read a quarter more (compiled again)."""
        run, metrics = self._compiled(run)
        if int(metrics["left_out"]) and self.update_rows < self.s.games * self.s.steps:
            self.update_rows = _whole_minibatches(self.update_rows * 5 // 4, self.s)
            self._compiled = jax.jit(self._iteration)
        return run, metrics

    def close(self) -> None:
        """Stop the scripted player's helper processes, if any."""
        if self.scripted:
            self.scripted.close()

    # --- the state of a run -----------------------------------------------------------

    def start(self, key: jax.Array, params: dict) -> dict:
        deal_key, seat_key, key = jax.random.split(key, 3)
        state = jax.vmap(self.env.init)(jax.random.split(deal_key, self.s.games))
        return {
            "params": params,
            "opponent": params,
            "optimizer": self.optimizer.init(params),
            "carry": Carry(state, self._learner_seats(seat_key, self.s.games), key,
                           jnp.zeros((self.s.games, self.num_players)), jnp.int32(0), jnp.float32(0),
                           jnp.int32(0), jnp.float32(0)),
        }

    def _learner_seats(self, key: jax.Array, games: int) -> jax.Array:
        """Self-play games: every seat; league, scripted and random games: one seat."""
        one_seat = jnp.arange(games) < self.league_rows.stop  # scripted, random, then league games
        seat = jax.random.randint(key, (games,), 0, self.num_players)
        one = jnp.arange(self.num_players)[None, :] == seat[:, None]
        return jnp.where(one_seat[:, None], one, True)

    def _is_scripted(self, games: int) -> jax.Array:
        return jnp.arange(games) < self.scripted_games

    # --- one iteration ------------------------------------------------------------------

    def _iteration(self, run: dict) -> tuple[dict, dict]:
        carry, samples, last_values = self._rollout(run["params"], run["opponent"], run["carry"])
        advantages, targets = jax.vmap(self._advantages, in_axes=(1, 1, 1, 1, 1, 0), out_axes=1)(
            samples.rewards, samples.value, samples.actor, samples.done, samples.learner, last_values
        )
        params, opt_state, losses = self._learn(run["params"], run["optimizer"], samples, advantages, targets,
                                                carry.key)
        decisions = samples.learner.sum()
        metrics = {
            "samples": jnp.minimum(decisions, self.update_rows),  # the learner decisions the update read
            "left_out": jnp.maximum(decisions - self.update_rows, 0),
            "episodes": carry.finished,
            "mean_return": carry.finished_return / jnp.maximum(carry.finished, 1),
            **losses,
        }
        if self.scripted_games:
            metrics["scripted_episodes"] = carry.scripted_finished
            metrics["scripted_mean_return"] = carry.scripted_return / jnp.maximum(carry.scripted_finished, 1)
        carry = carry._replace(key=jax.random.split(carry.key)[0], finished=jnp.int32(0),
                               finished_return=jnp.float32(0), scripted_finished=jnp.int32(0),
                               scripted_return=jnp.float32(0))
        return {**run, "params": params, "optimizer": opt_state, "carry": carry}, metrics

    def _rollout(self, params, opponent, carry: Carry):
        env = self.env
        games = self.s.games
        rows = jnp.arange(games)
        scripted, first = self._is_scripted(games), self.scripted_games

        def move(carry: Carry, _):
            state = carry.state
            key, act_key, step_key, seat_key = jax.random.split(carry.key, 4)
            actor = jnp.maximum(state.current_player, 0)
            roles = self._roles(state, actor)
            critic = self._critic_inputs(roles)
            scores = prior = None
            if self.prior:  # the twin's scores, read by the policy and, in scripted games, played by the twin
                scores = self.prior.scores(state.observation, state.legal_action_mask)
                prior = self.prior.features_of(scores)
            logits, value = network.apply(params, state.observation, state.legal_action_mask, critic, self.arch.links,
                                          prior)
            # the other seats' logits: equal ones (uniform draws among the legal moves) in random games, and
            # in scripted and self-play games, where no seat follows them; the frozen policy's in league games
            others = jnp.where(state.legal_action_mask, 0.0, -1e9)
            if self.league_rows.stop > self.league_rows.start:
                league = self.league_rows
                frozen, _ = network.apply(opponent, state.observation[league], state.legal_action_mask[league],
                                          links=self.arch.links, prior=None if prior is None else prior[league])
                others = others.at[league].set(frozen)
            learner = carry.learner_seats[rows, actor]
            action = jax.random.categorical(act_key, jnp.where(learner[:, None], logits, others))
            if first:
                script_key = jax.random.fold_in(act_key, 1)
                if scores is None:
                    by_script = self.scripted.actions(state.observation[:first], state.legal_action_mask[:first],
                                                      ~learner[:first], script_key)
                else:  # the twin plays from the scores it already gave the prior
                    by_script = self.prior.best(scores[:first], script_key)
                action = action.at[:first].set(jnp.where(learner[:first], action[:first], by_script))
            log_prob = jax.nn.log_softmax(logits)[rows, action]
            new = env.step_or_deal_batch(state, action, jax.random.split(step_key, games))
            done = new.terminated | new.truncated
            returns = carry.returns + new.rewards
            if env.game.seats_leave:  # a game the learner is out of has nothing left to teach: deal another
                out = jax.vmap(env.game.out_of_play)(new.game)
                left = ~done & ~(carry.learner_seats & ~out).any(axis=1)
                fresh = jax.vmap(env.init)(jax.random.split(jax.random.fold_in(step_key, 1), games))
                dealt = jax.tree_util.tree_map(lambda a, b: jnp.where(_rows(left, a), a, b), fresh, new)
                done = done | left
            else:
                dealt = new
            learned = (returns * carry.learner_seats).sum(axis=1) / carry.learner_seats.sum(axis=1)
            sample = Samples(state.observation, roles, state.legal_action_mask, action, log_prob, value, actor,
                             learner, new.rewards, done, jnp.zeros((games, 0)) if prior is None else prior)
            seats = jnp.where(done[:, None], self._learner_seats(seat_key, games), carry.learner_seats)
            ended = done & scripted
            carry = Carry(dealt, seats, key, jnp.where(done[:, None], 0.0, returns), carry.finished + done.sum(),
                          carry.finished_return + jnp.where(done, learned, 0.0).sum(),
                          carry.scripted_finished + ended.sum(),
                          carry.scripted_return + jnp.where(ended, learned, 0.0).sum())
            return carry, sample

        carry, samples = jax.lax.scan(move, carry, None, length=self.s.steps)
        observations = jax.vmap(lambda state: jax.vmap(lambda seat: env.observe(state, seat))(
            jnp.arange(self.num_players)))(carry.state)  # (games, seats, size): every seat's value, to bootstrap
        masks = jnp.ones(observations.shape[:-1] + (self.arch.num_actions,), bool)
        seats = jnp.broadcast_to(jnp.arange(self.num_players), observations.shape[:2])
        roles = jax.vmap(jax.vmap(self._roles, in_axes=(None, 0)), in_axes=(0, 0))(carry.state, seats)
        _, last_values = network.apply(params, observations, masks, self._critic_inputs(roles), self.arch.links)
        return carry, samples, last_values

    def _roles(self, state, seat):
        """The true roles as each game's `seat` names the places, if the critic or the role head reads them."""
        game = self.env.game
        if not (self.s.critic_sees_roles or self.s.role_weight):
            return jnp.zeros(jnp.shape(seat) + (0,), jnp.float32)
        return jax.vmap(game.critic_view)(state.game, seat) if jnp.ndim(seat) else game.critic_view(state.game, seat)

    def _critic_inputs(self, roles: jax.Array) -> jax.Array | None:
        return roles if self.s.critic_sees_roles else None  # None: the value head reads the policy's features alone

    def _advantages(self, rewards, values, actors, done, learner, last_values):
        """GAE of one game, along each seat's own decisions (a reverse scan carrying every seat's next value)."""
        s = self.s

        def back(carry, step):
            next_value, next_advantage, paid = carry
            reward, value, actor, ended, _ = step
            # a game that ended here: what follows is another game's
            next_value = jnp.where(ended, 0.0, next_value)
            next_advantage = jnp.where(ended, 0.0, next_advantage)
            paid = jnp.where(ended, 0.0, paid) + reward
            delta = paid[actor] + s.gamma * next_value[actor] - value
            advantage = delta + s.gamma * s.gae_lambda * next_advantage[actor]
            carry = (next_value.at[actor].set(value), next_advantage.at[actor].set(advantage), paid.at[actor].set(0.0))
            return carry, (advantage, advantage + value)

        start = (last_values, jnp.zeros_like(last_values), jnp.zeros_like(last_values))
        _, (advantages, targets) = jax.lax.scan(back, start, (rewards, values, actors, done, learner), reverse=True)
        return advantages, targets

    def _learn(self, params, opt_state, samples: Samples, advantages, targets, key):
        """PPO's epochs over the learner's samples: the other seats' decisions, about half of a rollout in league
        games, are left out before the update rather than weighted 0 inside it."""
        s = self.s
        # (steps, games, ...) -> (steps * games, ...), spelled out: an empty roles block has no size to infer
        flat = jax.tree_util.tree_map(lambda x: x.reshape((x.shape[0] * x.shape[1],) + x.shape[2:]), samples)
        advantages, targets = advantages.reshape(-1), targets.reshape(-1)
        pick_key, key = jax.random.split(key)
        # the learner's rows first, each run of rows in random order, so that a rollout with more learner
        # decisions than `update_rows` (rare: see `update_rows`) leaves out a random few of them
        shuffled = jax.random.uniform(pick_key, flat.learner.shape)
        kept = jnp.argsort(jnp.where(flat.learner, shuffled, 1.0 + shuffled))[: self.update_rows]
        flat, advantages, targets = jax.tree_util.tree_map(lambda x: x[kept], (flat, advantages, targets))
        weight = flat.learner.astype(jnp.float32)
        count = jnp.maximum(weight.sum(), 1.0)
        mean = (advantages * weight).sum() / count
        std = jnp.sqrt((((advantages - mean) ** 2) * weight).sum() / count) + 1e-8
        advantages = (advantages - mean) / std
        size = self.update_rows

        def epoch(carry, epoch_key):
            params, opt_state = carry
            order = jax.random.permutation(epoch_key, size).reshape(s.minibatches, -1)

            def minibatch(carry, index):
                params, opt_state = carry
                batch = jax.tree_util.tree_map(lambda x: x[index], (flat, advantages, targets, weight))
                grads, losses = jax.grad(partial(self._loss), has_aux=True)(params, *batch)
                updates, opt_state = self.optimizer.update(grads, opt_state, params)
                return (optax.apply_updates(params, updates), opt_state), losses

            (params, opt_state), losses = jax.lax.scan(minibatch, (params, opt_state), order)
            return (params, opt_state), losses

        (params, opt_state), losses = jax.lax.scan(epoch, (params, opt_state), jax.random.split(key, s.epochs))
        return params, opt_state, jax.tree_util.tree_map(jnp.mean, losses)

    def _loss(self, params, samples: Samples, advantages, targets, weight):
        s = self.s
        logits, value, features = network.heads(params, samples.observation, samples.mask,
                                                self._critic_inputs(samples.roles), self.arch.links,
                                                samples.prior if self.prior else None)
        log_probs = jax.nn.log_softmax(logits)
        log_prob = jnp.take_along_axis(log_probs, samples.action[:, None], axis=1)[:, 0]
        ratio = jnp.exp(log_prob - samples.log_prob)
        clipped = jnp.clip(ratio, 1 - s.clip, 1 + s.clip)
        count = jnp.maximum(weight.sum(), 1.0)
        policy_loss = -(jnp.minimum(ratio * advantages, clipped * advantages) * weight).sum() / count
        value_loss = (((value - targets) ** 2) * weight).sum() / count
        probs = jnp.exp(log_probs)
        entropy = -(jnp.where(samples.mask, probs * log_probs, 0.0).sum(axis=1) * weight).sum() / count
        loss = policy_loss + s.value_weight * value_loss - s.entropy * entropy
        losses = {"policy_loss": policy_loss, "value_loss": value_loss, "entropy": entropy}
        if s.role_weight:
            guessed = optax.sigmoid_binary_cross_entropy(network.predict_roles(params, features), samples.roles)
            losses["role_loss"] = (guessed.mean(axis=1) * weight).sum() / count
            loss = loss + s.role_weight * losses["role_loss"]
        return loss, losses


def update_rows(settings: Settings, one_seat_games: int, num_players: int, seats_leave: bool) -> int:
    """Rows of a rollout that PPO's update reads at first: the learner's expected share of the decisions, and
    a margin.

    In self-play games the learner makes every decision; in league, scripted and random games about one in
    `num_players`, or one in `num_players - 1` where seats leave the game (Hoax: as others go out, the learner's
    share grows; where it goes out itself, its game is dealt again). A rollout with more learner decisions
    leaves a random few out of its update, and the trainer counts only those the update read (`left_out`
    says how many); the next iterations then read more (`Trainer.iteration`).
    """
    self_play = (settings.games - one_seat_games) / settings.games
    one_seat = 1 / (num_players - 1 if seats_leave and num_players > 2 else num_players)
    expected = settings.games * settings.steps * (self_play + (1 - self_play) * one_seat)
    return _whole_minibatches(int(expected * UPDATE_MARGIN) + 1, settings)


def _whole_minibatches(rows: int, settings: Settings) -> int:
    """`rows`, at most a rollout's, rounded up to whole minibatches."""
    rows = min(rows, settings.games * settings.steps)
    return -(-rows // settings.minibatches) * settings.minibatches


def _rows(flags: jax.Array, leaf: jax.Array) -> jax.Array:
    """`flags` (one per game) shaped to pick whole rows of `leaf`."""
    return flags.reshape(flags.shape + (1,) * (leaf.ndim - 1))


def new_params(key: jax.Array, env: BatchedEnv, arch: network.Architecture) -> dict:
    return network.init(key, arch, network.input_scale(np.asarray(env.observation_high)))
