"""The batched Hoax engine against the reference, move for move.

One batch per table size holds random games (half of them played uniformly,
half by a player that investigates whenever it can and seldom accuses, so
that knowledge grows) and the rule scenarios below, each played by name and
then at random to its end; at 3 players one more game lasts long enough for
the record's counts to stop at their cap. One more batch plays a replacement sheet with a
low turn limit; two more compare the event history (`history_length`) too. Each batch is
one compilation of the twin.
"""

import numpy as np
import pytest

from hidden_role_envs import batched
from hidden_role_envs.games.hoax import GAME
from hidden_role_envs.games.hoax.actions import HOAX_CALL, IMMUNITY, TURN, VOTE
from hidden_role_envs.games.hoax.cards import NUM_CHARACTERS
from hidden_role_envs.games.hoax.observation import CAP
from hidden_role_envs.games.hoax.sheet import HOUSE_SHEET
from tests.games.hoax.facts import curious

parity = pytest.importorskip("tests.batched.parity")

DECKS = 64  # suspicion decks per game: more than the investigations of any game played here
BUT, SIL, EXW, LOV, COU, CHEF, GAR = "Butler", "Son-in-Law", "Ex-Wife", "Lover", "Distant Cousin", "Chef", "Gardener"


def random_setup(n: int, rng: np.random.Generator, characters=None, first=None) -> dict:
    return {
        "characters": characters or [int(c) for c in rng.permutation(NUM_CHARACTERS)[:n]],
        "first_player": int(rng.integers(n)) if first is None else first,
        "suspicion_decks": [[int(c) for c in rng.permutation(NUM_CHARACTERS)] for _ in range(DECKS)],
    }


def opening(n: int, picks: str = "CEP") -> list[str]:
    """The opening picks, in turn order from the first player; `picks` gives each type by initial, cycling."""
    names = {"C": "Cash", "E": "Evidence", "P": "Prestige"}
    return [f"pick {names[picks[k % len(picks)]]}" for k in range(n)]


def no_calls(count: int) -> list[str]:
    return ["no hoax"] * count


def vote(before_caller: int, ballots: str) -> list[str]:
    """`before_caller` players let the claim pass, the next calls, then the ballots in order ("d" down, "u" up)."""
    return ["no hoax"] * before_caller + ["call hoax"] + [f"thumbs {'down' if b == 'd' else 'up'}" for b in ballots]


# (name, characters, first player, actions by name); the game goes on at random after them.
SCENARIOS = {
    3: [
        ("the claim stands at once when nobody may call", [BUT, SIL, LOV], 0,
         opening(3) + ["accuse +1 as Son-in-Law", "claim Lover Evidence", "call hoax", "thumbs up", "end turn",
                       "claim Lover Evidence", "no hoax", "end turn", "claim Lover Evidence"]),
        ("the last player left wins", [BUT, SIL, LOV], 0,
         opening(3) + ["accuse +1 as Son-in-Law", "claim Butler +2", "no hoax", "end turn", "accuse +1 as Butler"]),
        ("a wrong accusation by the second-last player makes the other the last one left", [BUT, SIL, LOV], 0,
         opening(3) + ["accuse +1 as Son-in-Law", "claim Butler +2", "no hoax", "end turn", "accuse +1 as Chef"]),
        ("the Ex-Wife's neighbours are the other player once, with two left", [EXW, BUT, SIL], 0,
         opening(3, "CCC") + ["accuse +1 as Butler", "claim Ex-Wife neighbours Cash", "no hoax", "no immunity"]),
    ],
    4: [
        ("a claim, its privilege and the turn passing left", [BUT, SIL, LOV, CHEF], 1,
         opening(4) + ["claim Lover Prestige"] + no_calls(3) + ["end turn", "claim Chef Prestige +3"] + no_calls(3)),
        ("an accusation before the claim, one per turn", [BUT, SIL, LOV, CHEF], 0,
         opening(4) + ["accuse +3 as Chef", "claim Butler +1", "no hoax", "no hoax", "end turn"]),
        ("a wrong accusation ends the accuser's turn and returns its impostor tokens", [BUT, SIL, LOV, CHEF], 0,
         opening(4) + ["claim Lover Prestige"] + vote(0, "ddd") + ["accuse +2 as Gardener"]),
    ],
    5: [
        ("an immunity that stands keeps the privilege off that player", [SIL, BUT, EXW, COU, LOV], 0,
         opening(5, "CCCCC") + ["claim Son-in-Law Cash"] + no_calls(4) + ["immune as Lover"] + no_calls(4)
         + ["no immunity", "no immunity", "immune as Lover"] + no_calls(4)),
        ("an immunity claim found false: an impostor token, and the privilege reaches the player",
         [SIL, BUT, EXW, COU, LOV], 0,
         opening(5, "CCCCC") + ["claim Son-in-Law Cash"] + no_calls(4) + ["immune as Lover"] + vote(0, "dddu")),
        ("an immunity claim found true: its claimant wins", [SIL, BUT, EXW, COU, LOV], 0,
         opening(5, "CCCCC") + ["claim Son-in-Law Cash"] + no_calls(4)
         + ["no immunity", "no immunity", "no immunity", "immune as Lover"] + vote(0, "dddu")),
        ("a true claim found by the vote wins", [BUT, SIL, EXW, COU, LOV], 2,
         opening(5) + ["claim Ex-Wife Cash"] + vote(1, "uddd")),
        ("a tie lets the claim stand; the holder of the Hoax card is not asked", [BUT, SIL, EXW, COU, LOV], 0,
         opening(5) + ["claim Lover Prestige"] + vote(2, "ddu" + "u") + ["end turn", "claim Gardener Cash +1"]
         + no_calls(3)),
        ("the Chef's swap, answered", [CHEF, BUT, SIL, LOV, COU], 0,
         opening(5, "ECCCC") + ["claim Chef Cash +3"] + no_calls(4) + ["no immunity"]),
        ("the Gardener takes Evidence, then from the named player", [GAR, BUT, SIL, LOV, COU], 0,
         opening(5, "CCCCC") + ["claim Gardener Cash +2"] + no_calls(4) + ["no immunity"]),
        ("the Hoax card of an eliminated player goes back to the centre", [BUT, SIL, EXW, COU, LOV], 0,
         opening(5) + ["claim Lover Prestige"] + vote(1, "uuuu") + ["accuse +2 as Ex-Wife"]),
    ],
    6: [
        ("an eliminated neighbour is skipped for the next player still in", [EXW, BUT, SIL, COU, LOV, CHEF], 0,
         opening(6, "CCCCCC") + ["accuse +1 as Butler", "claim Ex-Wife neighbours Cash"] + no_calls(4)),
        ("the Son-in-Law takes from every other player", [SIL, BUT, EXW, COU, CHEF, GAR], 3,
         opening(6, "PPPPPP") + ["claim Lover Evidence"] + no_calls(5) + ["end turn"]
         + ["claim Son-in-Law Prestige"] + no_calls(5)),
    ],
}

# A replacement sheet: options with two and three effects, taking from the named player twice (answered once),
# from each neighbour, swapping, and immunities to them.
SHEET = (
    ("Maid", {"dust": ("take Prestige", "named player takes Cash"),
              "steal": ("take named type from each other player",)}, ("Chef",)),
    ("Thief", {"rob": ("take Cash from named player", "take Evidence from named player"),
               "raid": ("take Cash", "take named type from each neighbour", "swap named type with named player")},
     ()),
    ("Guard", {"": ("take Cash",)}, ("Thief", "Maid")),
    HOUSE_SHEET[2],
    ("Lover", HOUSE_SHEET[3][1], ("Thief",)),
    ("Chef", {"": ("swap named type with named player",)}, ("Gardener", "Thief")),
    HOUSE_SHEET[6],
)


PATIENT_TURNS = 310  # past 100 claims, calls and ballots of each seat at 3 players: the record's counts stop


def patient(ref, rng, mask) -> int:
    """Claims the Lover, calls Hoax on every claim and lets it stand, for PATIENT_TURNS turns; then random."""
    u = ref.unwrapped
    table = u.engine.table
    if table.turn < PATIENT_TURNS:
        wanted = {TURN: "end turn" if table.claimed else "claim Lover Evidence", HOAX_CALL: "call hoax",
                  VOTE: "thumbs up", IMMUNITY: "no immunity"}.get(table.decision)
        if wanted is not None and mask[u.string_to_action(wanted)]:
            return u.string_to_action(wanted)
    return int(rng.choice(np.flatnonzero(mask)))


class Players:
    """The choices of every game of a batch: a script by name then uniform random play, or a policy."""

    def __init__(self, twins, scripts: list, policies: list):
        self.scripts = {id(ref): list(script) for ref, script in zip(twins.refs, scripts)}
        self.policies = {id(ref): policy for ref, policy in zip(twins.refs, policies)}

    def __call__(self, ref, rng, mask) -> int:
        script = self.scripts.get(id(ref))
        if script:
            action = ref.unwrapped.string_to_action(script.pop(0))
            assert mask[action], f"{ref.unwrapped.action_to_string(action)!r} is not legal"
            return action
        return self.policies[id(ref)](ref, rng, mask)


def uniform(ref, rng, mask) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def play_batch(n: int, games: int, scenarios=(), arguments=None, seed=0, policies=()) -> parity.Twins:
    """`games` random games (half uniform, half curious), the scenarios, and one game per extra policy."""
    rng = np.random.default_rng(seed)
    setups = [random_setup(n, rng) for _ in range(games + len(policies))]
    setups += [random_setup(n, rng, characters, first) for _, characters, first, _ in scenarios]
    twins = parity.Twins(GAME, n, setups, arguments)
    players = Players(twins, [[]] * (games + len(policies)) + [actions for *_, actions in scenarios],
                      [(uniform, curious)[g % 2] for g in range(games)] + list(policies) + [uniform] * len(scenarios))
    assert twins.play(seed=seed, choose=players) > 20
    assert not any(players.scripts.values()), "a scenario's game ended before its script"
    assert all(ref.unwrapped.engine.suspicion_decks for ref in twins.refs), "a game used up the setup's decks"
    return twins


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_random_games_and_rule_scenarios_match_the_reference_at_every_step(n, parity_games):
    policies = [patient] if n == 3 else []  # one long game whose record's counts reach their cap
    twins = play_batch(n, parity_games(20), SCENARIOS[n], seed=n, policies=policies)
    kinds = {type(e).__name__ for ref in twins.refs for e in ref.unwrapped._episode_events}
    assert {"Shown", "ImmunityClaimed", "ClaimChecked", "Impostor", "Swapped", "GameOver"} <= kinds
    if policies:
        record = twins.refs[parity_games(20)].unwrapped.observer.known["hoax_calls"]
        assert record.max() == CAP


def test_a_replacement_sheet_and_the_turn_limit_match_the_reference(parity_games):
    twins = play_batch(4, parity_games(30), arguments={"character_sheet": SHEET, "max_turns": 12}, seed=7)
    engines = [ref.unwrapped.engine for ref in twins.refs]
    assert any(not e.is_over for e in engines) and any(e.is_over for e in engines)  # truncated ones, and ends


@pytest.mark.parametrize("n, history_length", [(3, 3), (6, 32)])
def test_the_event_history_matches_the_reference_at_every_step(n, history_length, parity_games):
    """The `history` block too: every event each seat saw, in order, turned to its side (3 rows: the ring wraps)."""
    twins = play_batch(n, parity_games(40), SCENARIOS[n], arguments={"history_length": history_length}, seed=30 + n)
    kinds = {type(e).__name__ for ref in twins.refs for e in ref.unwrapped._episode_events}
    assert {"Shown", "AccusedAs", "Immune", "NothingToTake", "Impostor", "Swapped", "GameOver"} <= kinds


def test_arguments_the_twin_cannot_take_are_refused():
    with pytest.raises(ValueError, match="character_sheet must have 7 rows"):
        batched.make("hoax", num_players=4, character_sheet=HOUSE_SHEET[:6])
    env = batched.make("hoax", num_players=4)
    with pytest.raises(ValueError, match="4 different characters"):
        env.setup({"characters": [BUT, SIL, LOV, BUT]})
    with pytest.raises(ValueError, match=r"suspicion_decks\[0\] must hold each"):
        env.setup({"suspicion_decks": [[BUT] * 7]})
