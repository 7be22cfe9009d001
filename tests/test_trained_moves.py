"""The shipped policies play the moves they played when they shipped, on the same seeded positions: their figures
in RESULTS.md hold only while the network, the observation and (Secrets') scripted prior they read stay the same.

Positions where the best move leads the next by less than `MARGIN` logits are not compared (float rounding may
differ between machines). After a deliberate change, retrain and ship the policies, then record their moves again:
`python -m tests.test_trained_moves`.
"""

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("jax", reason="trained policies need the jax extra")

from hidden_role_envs.core import registry  # noqa: E402
from hidden_role_envs.policies import make_policy  # noqa: E402
from tests.support import decisions, uniform_choice  # noqa: E402

RECORD = Path(__file__).parent / "data" / "trained_moves.json"
GAMES = sorted(name for name in registry.GAMES if name != "toy")
POSITIONS = 300  # decisions of seeded random play, from game seed 0 onwards (fewer miss changes of the prior)
MARGIN = 0.01


def shipped_moves(game: str) -> list[tuple[int, float]]:
    """The shipped policy's move at each position, and how many logits it leads the next best by."""
    env = registry.make(game, num_players=registry.game(game).typical_players)
    policy = make_policy("trained", env)
    rng = np.random.default_rng(0)
    moves = []
    seed = 0
    while len(moves) < POSITIONS:
        for _, observation, _ in decisions(env, uniform_choice(rng), seed):
            logits = policy.action_logits(observation)
            best, second = np.sort(logits)[::-1][:2]
            moves.append((int(np.argmax(logits)), float(best - second)))
            if len(moves) == POSITIONS:
                break
        seed += 1
    return moves


@pytest.mark.parametrize("game", GAMES)
def test_the_shipped_policy_plays_the_moves_it_played_when_it_shipped(game):
    recorded = json.loads(RECORD.read_text())[game]
    compared = [(position, move) for position, move in enumerate(recorded) if move is not None]
    assert len(compared) >= POSITIONS // 2
    moves = shipped_moves(game)
    changed = [position for position, move in compared if moves[position][0] != move]
    assert not changed, (f"the shipped {game} policy now plays another move at {len(changed)} of {len(compared)} "
                         f"positions (the first: {changed[:5]}); see this module's docs")


if __name__ == "__main__":
    record = {game: [move if lead >= MARGIN else None for move, lead in shipped_moves(game)] for game in GAMES}
    RECORD.parent.mkdir(exist_ok=True)
    RECORD.write_text("{\n" + ",\n".join(f" {json.dumps(game)}: {json.dumps(moves)}" for game, moves in record.items())
                      + "\n}\n")
    print(f"wrote {RECORD}")
