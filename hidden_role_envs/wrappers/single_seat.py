"""One seat of a game as a Gymnasium env, the view single-agent RL libraries need.

    import gymnasium, hidden_role_envs
    env = gymnasium.make("hidden_roles/Secrets-v1", num_players=5, opponents="scripted")
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(env.unwrapped.action_masks().argmax())

The learner plays one seat (a random seat each episode by default, or a
fixed `seat`); every other seat is played by `opponents`, in the learner's
place between its turns. The learner sees only its own observation vector
and gets only its own reward: the sum of what the AEC env paid it since its
last decision. `action_masks()` is the legal-action mask that sb3-contrib's
MaskablePPO asks for.

`opponents` is one policy spec for every other seat, or a list of specs: a
pool from which each other seat draws one spec per episode (self-play mixes
frozen past versions with scripted and random players this way). A spec is
`"random"`, `"scripted"`, the path of a saved model (`.zip`) or a callable
(see `hidden_role_envs.policies`). Opponents are reseeded from the env's
seed every episode, so `reset(seed=s)` replays the same episode.

An illegal action of the learner ends the episode with a reward of -1
(`illegal="penalize"`, PettingZoo's TerminateIllegal semantics), so that
algorithms without masking, and Gymnasium's and Stable-Baselines3's env
checkers, can step with any action; pass `illegal="raise"` to get the
AEC env's ValueError instead. With `action_masks()` it never happens. An
opponent that plays an illegal action raises a ValueError naming it and the
action: its mistake never silently ends the learner's episode.

A game can end before the learner is asked anything (a seat that is never
active nor targeted): such deals are skipped at reset, as they hold no
decision to learn from. Other keyword arguments go to the game's `env()`.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from hidden_role_envs.core import registry
from hidden_role_envs.core.checks import is_int
from hidden_role_envs.policies import Policy, is_model_path, make_policy

MAX_SKIPPED_DEALS = 1000


class SingleSeatEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        game: str = "secrets",
        num_players: int | None = None,
        seat: int | None = None,
        opponents: Any = "random",
        render_mode: str | None = None,
        **env_kwargs: Any,
    ):
        self.game = registry.game_name(game)
        if num_players is not None:
            env_kwargs["num_players"] = num_players
        env_kwargs.setdefault("illegal", "penalize")
        self.aec = registry.make(self.game, **env_kwargs)
        self.num_players = self.aec.unwrapped.num_players
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < self.num_players
        ):
            raise ValueError(f"seat must be None (a random seat each episode) or 0..{self.num_players - 1}; got {seat!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human'; got {render_mode!r}")
        self.fixed_seat = seat
        self.render_mode = render_mode
        self._models: dict[str, Policy] = {}
        self.set_opponents(opponents)
        agent = self.aec.possible_agents[0]
        self.observation_space = self.aec.observation_space(agent)["observation"]
        self.action_space = spaces.Discrete(self.aec.action_space(agent).n)
        self.seat = 0
        self.learner = agent
        self._opponents: dict[str, Policy] = {}
        self._opponent_specs: dict[str, str] = {}
        self._reward = 0.0  # paid to the learner since its last decision

    # --- opponents --------------------------------------------------------

    def set_opponents(self, opponents: Any) -> None:
        """Replace the opponents' spec or pool; takes effect at the next reset."""
        pool = list(opponents) if isinstance(opponents, (list, tuple)) else [opponents]
        if not pool:
            raise ValueError("opponents must name at least one policy")
        for spec in pool:  # fail now, not at the first reset
            self._policy(spec, 0)
        self.pool = pool

    def _policy(self, spec: Any, seed: int) -> Policy:
        if is_model_path(spec):  # loading is slow and the model holds no random state: keep it
            key = str(spec)
            if key not in self._models:
                self._models[key] = make_policy(spec, self.aec)
            return self._models[key]
        return make_policy(spec, self.aec, seed)

    # --- Gymnasium API -----------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        for _ in range(MAX_SKIPPED_DEALS):
            self.seat = int(self.np_random.integers(self.num_players)) if self.fixed_seat is None else self.fixed_seat
            self.learner = self.aec.possible_agents[self.seat]
            self._opponents = {}
            self._opponent_specs = {}
            for agent in self.aec.possible_agents:
                if agent != self.learner:
                    spec = self.pool[int(self.np_random.integers(len(self.pool)))]
                    self._opponents[agent] = self._policy(spec, int(self.np_random.integers(2**31)))
                    self._opponent_specs[agent] = spec if isinstance(spec, str) else getattr(spec, "__name__", repr(spec))
            self.aec.reset(seed=int(self.np_random.integers(2**31)), options=options)
            self._reward = 0.0
            self._play_others()
            if not self._learner_done():
                break
        else:
            raise RuntimeError(f"{MAX_SKIPPED_DEALS} deals in a row ended before the learner's first decision")
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action):
        if self._learner_done():
            raise RuntimeError("the episode is over: call reset()")
        self._step(action)
        self._play_others()
        reward, self._reward = self._reward, 0.0
        terminated = bool(self.aec.terminations[self.learner])
        truncated = bool(self.aec.truncations[self.learner])
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, self._info()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions, as booleans (sb3-contrib's MaskablePPO calls this)."""
        return self.aec.observe(self.learner)["action_mask"].astype(bool)

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; pass render_mode='ansi' or 'human'.")
            return None
        text = self.aec.unwrapped.render_text(self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # --- internals --------------------------------------------------------

    def _learner_done(self) -> bool:
        return self.aec.terminations[self.learner] or self.aec.truncations[self.learner]

    def _step(self, action) -> None:
        """One step of the AEC env; what it pays the learner adds up until the learner's next decision."""
        self.aec.step(action)
        self._reward += self.aec.rewards.get(self.learner, 0.0)

    def _play_others(self) -> None:
        """Step the other seats until the learner must decide or its episode is over."""
        aec = self.aec
        while aec.agents:
            agent = aec.agent_selection
            if agent == self.learner:
                return
            if aec.terminations[agent] or aec.truncations[agent]:
                self._step(None)
                continue
            observation = aec.observe(agent)
            action = self._opponents[agent](observation)
            mask = observation["action_mask"]
            if not (is_int(action) and 0 <= action < len(mask) and mask[action]):
                # the AEC env would end the learner's episode for it (illegal="penalize"): the opponent is at fault
                name = aec.unwrapped.action_to_string(int(action)) if is_int(action) and 0 <= action < len(mask) else None
                shown = f"{action!r}" + (f" ({name!r})" if name else "")
                raise ValueError(f"the opponent {self._opponent_specs[agent]!r} in {agent} played {shown}, which is "
                                 f"not a legal action: the single-seat env trusts its opponents to play legally")
            self._step(action)

    def _observation(self) -> np.ndarray:
        return self.aec.observe(self.learner)["observation"]

    def _info(self) -> dict:
        return {"seat": self.seat, **self.aec.infos[self.learner]}


def register_single_seat_env(game) -> None:
    """Register `game`'s single-seat view under its Gymnasium id (`hidden_roles/Secrets-v1`)."""
    if game.single_seat_id not in gymnasium.registry:
        gymnasium.register(game.single_seat_id, entry_point=SingleSeatEnv, kwargs={"game": game.name})
