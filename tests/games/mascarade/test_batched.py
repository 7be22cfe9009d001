"""The batched Mascarade engine against the reference, move for move.

One batch per table (a jit compile each, the cost of these tests): at every
player count, the rule scenarios of `test_rules` played from their deal
(then on at random), games of scripted players, and seeded random games;
the constructor's arguments at two more tables; the event history at two.
"""

import numpy as np
import pytest

from hidden_role_envs.games.mascarade import GAME
from hidden_role_envs.games.mascarade.bots import MascaradeScriptedPlayer
from hidden_role_envs.games.mascarade.characters import CHARACTERS
from hidden_role_envs.games.mascarade.config import configure
from tests.games.mascarade import test_rules

parity = pytest.importorskip("tests.batched.parity")

SCRIPTED_GAMES = 2  # per table, after the scenarios


def random_setup(n: int, rng: np.random.Generator, **arguments) -> dict:
    characters = configure(n, **arguments).characters
    return {"cards": [CHARACTERS[characters[i]] for i in rng.permutation(len(characters))],
            "first_player": int(rng.integers(n))}


def scenarios(n: int) -> list:
    """The rule scenarios at this table that are played from their deal by actions only (no coins set by hand)."""
    tables = (test_rules.TURNS, test_rules.FORCED, test_rules.POWERS, test_rules.END, test_rules.TWO_CARDS)
    return [sc for table in tables for sc in table
            if sc.players == n and not sc.kwargs and n != 8 and not any(callable(step) for step in sc.actions)]


def play_through(twins: parity.Twins, scripts: list[list[str]], bots: list) -> int:
    """The scripted games play their actions (then at random), the bots' games their bots; the rest at random."""
    played = [0] * len(twins.refs)
    index = {id(ref): g for g, ref in enumerate(twins.refs)}

    def choose(ref, rng, mask):
        g = index[id(ref)]
        played[g] += 1
        u = ref.unwrapped
        if g < len(scripts) and played[g] <= len(scripts[g]):
            return u.string_to_action(scripts[g][played[g] - 1].rpartition(": ")[2])
        if len(scripts) <= g < len(scripts) + len(bots):
            return bots[g - len(scripts)](ref.observe(ref.agent_selection))
        return rng.choice(mask.nonzero()[0])

    return twins.play(seed=len(twins.refs), choose=choose)


def check_table(n: int, games: int, history_length: int = 0, **arguments) -> int:
    rng = np.random.default_rng(n + history_length)
    chosen = [] if arguments else scenarios(n)
    setups = [{"cards": list(sc.cards), "first_player": sc.first} for sc in chosen]
    setups += [random_setup(n, rng, **arguments) for _ in range(SCRIPTED_GAMES + games)]
    config = configure(n, **arguments)
    bots = [MascaradeScriptedPlayer(config, seed=s) for s in range(SCRIPTED_GAMES)]
    twins = parity.Twins(GAME, n, setups, {**arguments, "history_length": history_length})
    return play_through(twins, [sc.actions for sc in chosen], bots)


@pytest.mark.parametrize("n", range(2, 14))
def test_scenarios_scripted_and_random_games_match_the_reference_at_every_step(n, parity_games):
    assert check_table(n, parity_games(10)) > 20


SPY_AND_THIEF = ["Judge", "Spy", "Thief", "Widow", "Fool", "Cheat"]  # the Spy with two cards each, the Thief
VARIANTS = [(3, {"characters": SPY_AND_THIEF}), (6, {"extra_centre_cards": 2}), (8, {"characters": test_rules.SET8})]


@pytest.mark.parametrize("n,arguments", VARIANTS, ids=["3 players, the Spy and the Thief",
                                                        "6 players + 2 centre cards (approximate knowledge)",
                                                        "8 players, a custom set with the Peasants"])
def test_the_constructor_arguments_match_the_reference(n, arguments, parity_games):
    assert check_table(n, parity_games(10), **arguments) > 20


WITCH_BISHOP_THIEF = ["Judge", "Witch", "Bishop", "Thief", "Fool", "King"]  # with SET8: every power but the Cheat's
HISTORIES = [(3, {"characters": WITCH_BISHOP_THIEF}, 3), (8, {"characters": test_rules.SET8}, 32)]


@pytest.mark.parametrize("n,arguments,history_length", HISTORIES,
                         ids=["3 players, two cards each, 3 rows (the ring wraps)", "8 players, the Peasants, 32 rows"])
def test_the_event_history_matches_the_reference_at_every_step(n, arguments, history_length, parity_games):
    """The `history` block too: every event each seat saw, in order, turned to its side (places, purses)."""
    assert check_table(n, parity_games(12), history_length=history_length, **arguments) > 20


def test_the_scenarios_are_replayed():
    """Every player count but 8 (whose scenarios use a custom set) replays some of the rule scenarios."""
    assert all(scenarios(n) for n in (2, 3, 4, 5, 13))


def test_what_the_batched_engine_lacks_is_refused():
    from hidden_role_envs.games.mascarade.batched import MascaradeBatched

    with pytest.raises(ValueError, match="reward mode"):
        MascaradeBatched(configure(5), reward_mode="score")
