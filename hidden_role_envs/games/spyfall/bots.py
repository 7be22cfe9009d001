"""A scripted (heuristic) Spyfall player.

`SpyfallScriptedPlayer` is a policy over the observation dict a seat
receives and nothing else (no engine state, no other seat's view), so it can
sit at any table, next to people, learned policies or other bots:

    from hidden_role_envs import spyfall_v1
    from hidden_role_envs.games.spyfall.bots import SpyfallScriptedPlayer

    env = spyfall_v1.env(num_players=5)
    bot = SpyfallScriptedPlayer(env.unwrapped.config, seed=0)
    env.reset(seed=0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else bot(obs))

(one bot object can play every seat: it keeps no memory between calls.)

How it plays, reading the KNOWLEDGE blocks (`location_belief`,
`spy_belief`) of its observation:

- As a non-spy it answers truthfully and asks the seat it suspects most
  about the attribute that splits the locations most evenly (one it has not
  asked that seat yet). A spy answering it is wrong half of the time, which
  is what gives the spy away; but on the default locations that question is
  also the one whose true answer tells the spy most about the place (close
  to one bit), so each of its questions helps the spy as much as a question
  can. At any of its decisions while the clock runs it accuses once a seat
  is the spy with probability at least ACCUSE_AT, and it always accuses
  when time is up (a spy nobody convicts wins anyway). It votes yes only
  when the accused is the spy with probability at least VOTE_YES_AT:
  convicting a non-spy hands the spy 4 points, and when someone else
  convicts the spy that accuser outscores it.
- As the spy it answers what the locations it still believes in most
  likely say, asks the question whose answer it is least sure of (the most
  it can learn), names the location at any of its decisions while the clock
  runs once it is at least GUESS_AT sure and at most FIT_AT of the answers
  contradict it (random answers make some location look likely without
  fitting it), accuses in its first window and when time is up (a
  convicted non-spy pays it 4 instead of 2) and votes yes on every
  accusation.

Measured against uniformly random legal play: one scripted seat, the other
seats random, the scripted seat rotated across games, 2000 seeded games,
seed 0; the baseline is a random player in the same seats on the same deals.
A seat wins a game when it ends with the most points (ties: all of them).

| players | scripted win rate (95% CI) | random in the same seat (95% CI) |
|---|---|---|
| 3 | 0.808 [0.791, 0.825] | 0.568 [0.546, 0.589] |
| 4 | 0.846 [0.830, 0.861] | 0.602 [0.580, 0.623] |
| 5 | 0.889 [0.874, 0.902] | 0.668 [0.647, 0.688] |
| 6 | 0.920 [0.908, 0.932] | 0.731 [0.711, 0.750] |
| 7 | 0.914 [0.901, 0.926] | 0.767 [0.748, 0.785] |
| 8 | 0.928 [0.916, 0.939] | 0.810 [0.793, 0.827] |

Random play wins often because a random spy soon names a location at
random and nearly always misses, which makes every non-spy a winner. The
same seeded games, counted by the card the seat held (the scripted seat's
win rate, then a random player's in that seat on the same deals):

| players | as the spy | random as the spy | as a non-spy | random as a non-spy |
|---|---|---|---|---|
| 3 | 0.732 | 0.156 | 0.848 | 0.777 |
| 4 | 0.775 | 0.201 | 0.870 | 0.735 |
| 5 | 0.768 | 0.181 | 0.920 | 0.793 |
| 6 | 0.732 | 0.148 | 0.955 | 0.838 |
| 7 | 0.713 | 0.131 | 0.948 | 0.875 |
| 8 | 0.676 | 0.076 | 0.960 | 0.904 |

Measured, from the repository root, for each player count P with

    python -m hidden_role_envs.training.evaluate spyfall --players P --games 2000 --seed 0 --seats scripted,random
"""

from __future__ import annotations

import numpy as np

from hidden_role_envs.games.spyfall.actions import ACCUSE, ANSWER, ASK, GUESS, PASS, VOTE, spyfall_actions
from hidden_role_envs.games.spyfall.config import SpyfallConfig
from hidden_role_envs.games.spyfall.observation import spyfall_layout
from hidden_role_envs.games.spyfall.rules import BALLOT, FINAL_ACCUSATION, QUESTION, REPLY, WINDOW

ACCUSE_AT = 0.7  # a non-spy stops the clock to accuse a seat at least this likely to be the spy
VOTE_YES_AT = 0.8  # ... and votes to convict only a seat at least this likely to be the spy
GUESS_AT = 0.75  # the spy names the location once it is at least this sure ...
FIT_AT = 0.2  # ... and at most this share of the answers it heard contradict that location


class SpyfallScriptedPlayer:
    """A heuristic Spyfall player that reads only its seat's observation dict.

    `player(observation_dict)` returns a legal action id. `config` is the
    configuration of the table it sits at (`env.unwrapped.config`): its
    seats, locations and attributes. `seed` makes the choice among equally
    good actions reproducible.
    """

    def __init__(self, config: SpyfallConfig, seed: int | None = None):
        self.num_players = config.num_players
        self.layout = spyfall_layout(config)
        self.actions = spyfall_actions(config)
        self.matrix = config.places.matrix.astype(np.float64)  # (locations, attributes)
        self.rng = np.random.default_rng(seed)

    def __call__(self, observation: dict[str, np.ndarray]) -> int:
        mask = observation["action_mask"]
        if not mask.any():
            raise ValueError("no legal action in the mask: this seat is not asked to decide")
        v = self.layout.views(np.asarray(observation["observation"], dtype=np.float32))
        decision = int(np.argmax(v["decision"]))
        spy = bool(v["is_spy"][0])
        if decision == BALLOT:
            accused = int(np.argmax(v["accusation"][1]))
            yes = spy or v["spy_belief"][accused] >= VOTE_YES_AT
            return self._first(VOTE, lambda arg: arg == yes)
        if decision == FINAL_ACCUSATION:
            return self._accuse(v, spy)
        if decision not in (QUESTION, REPLY, WINDOW):
            raise ValueError(f"unknown decision {decision}")
        stop = self._stop_the_clock(v, mask, spy, decision == WINDOW)
        if stop is not None:
            return stop
        if decision == QUESTION:
            return self._ask(v, mask, spy)
        if decision == REPLY:
            return self._answer(v, spy)
        return self.actions.of_kind[PASS][0]

    def _first(self, kind: int, keep) -> int:
        return next(a for a in self.actions.of_kind[kind] if keep(self.actions.args[a]))

    def _stop_the_clock(self, v, mask: np.ndarray, spy: bool, in_window: bool) -> int | None:
        """The spy names the location once sure of it, and accuses in its windows; a non-spy accuses a seat it
        is sure of. None: the clock runs on."""
        can_accuse = any(mask[a] for a in self.actions.of_kind[ACCUSE])
        if spy:
            belief = v["location_belief"]
            best = int(np.argmax(belief))
            guess = self.actions.id_of(GUESS, best)
            if belief[best] >= GUESS_AT and self._fits(v, best) and mask[guess]:
                return guess
            return self._accuse(v, spy) if can_accuse and in_window else None
        if can_accuse and v["spy_belief"].max() >= ACCUSE_AT:
            return self._accuse(v, spy)
        return None

    def _ask(self, v, mask: np.ndarray, spy: bool) -> int:
        targets = sorted({self.actions.args[a][0] for a in self.actions.of_kind[ASK] if mask[a]})
        if spy:  # the question it knows least about: P(yes) under its location belief closest to 1/2
            share = v["location_belief"] @ self.matrix
            target = int(self.rng.choice(targets))
        else:  # the attribute splitting the locations most evenly, asked of the seat suspected most
            share = self.matrix.mean(axis=0)
            belief = v["spy_belief"]
            best = max(belief[t] for t in targets)
            target = int(self.rng.choice([t for t in targets if belief[t] >= best - 1e-9]))
        order = np.argsort(np.abs(share - 0.5), kind="stable")
        fresh = [a for a in order if not v["answers"][target, a].any()]  # not yet asked of that seat
        return self.actions.id_of(ASK, (target, int(fresh[0] if fresh else order[0])))

    def _answer(self, v, spy: bool) -> int:
        attribute = int(np.argmax(v["question_attribute"]))
        if spy:
            yes = v["location_belief"] @ self.matrix[:, attribute] >= 0.5
        else:
            yes = self.matrix[int(np.argmax(v["location"])), attribute] == 1
        return self._first(ANSWER, lambda arg: arg == bool(yes))

    def _fits(self, v, location: int) -> bool:
        """Whether the others' answers contradict `location` no more often than the model's lie rate allows.

        The belief is sharp whenever one location fits best, even when the
        answers are noise (players who lie at random); then none fits well
        and naming one would be a bad bet.
        """
        tallies = v["answers"][1:]  # the other seats' (yes, no) counts per attribute
        truth = self.matrix[location]
        contradictions = (tallies[:, :, 0] @ (1 - truth)).sum() + (tallies[:, :, 1] @ truth).sum()
        return contradictions <= FIT_AT * tallies.sum()

    def _accuse(self, v, spy: bool) -> int:
        if spy:  # any other seat: a conviction pays the spy 4
            return self.actions.id_of(ACCUSE, int(self.rng.integers(1, self.num_players)))
        belief = v["spy_belief"]
        return self.actions.id_of(ACCUSE, int(np.argmax(belief[1:])) + 1)

