"""The batched Spyfall engine against the reference, move for move.

Each table is compiled once: its seeded random games and the rule scenarios
of `test_rules.py` written for it are played in one batch.
"""


import numpy as np
import pytest

from hidden_role_envs.games.spyfall import GAME, Location
from hidden_role_envs.games.spyfall.actions import ACCUSE, GUESS
from hidden_role_envs.games.spyfall.locations import DEFAULT_LOCATIONS
from tests.games.spyfall.test_rules import CLOCK, DEAL, QUESTIONS, ROUNDS, SCORING, TIME_UP, WINDOW

parity = pytest.importorskip("tests.batched.parity")
batched = pytest.importorskip("hidden_role_envs.batched")
jax = pytest.importorskip("jax")

SCENARIOS = [*DEAL, *QUESTIONS, *WINDOW, *CLOCK, *TIME_UP, *SCORING, *ROUNDS]
# Each table is one compilation, so the arguments are spread over the player counts: the defaults at 3, 4, 5 and 8
# players, and one variant each at 5 (the scenarios' own arguments: one question, two rounds), 6 and 7.
SHORT_ROUNDS = {"num_rounds": 2, "question_limit": 1}
LONG_GAME = {"num_rounds": 3, "question_limit": 6}
# locations and attributes of one's own: 3 locations, all played, and a turn limit that truncates
OWN_PLACES = {
    "locations": [
        Location("Moon Base", ("Pilot", "Miner", "Cook", "Doctor", "Guard", "Chief"), frozenset({"cold", "far away"})),
        Location("Lighthouse", ("Keeper", "Sailor", "Painter", "Fisher", "Guide", "Cook"),
                 frozenset({"by the sea", "far away"})),
        Location("Bakery", ("Baker", "Customer", "Cashier", "Driver", "Owner", "Child"),
                 frozenset({"warm", "by the sea"})),
    ],
    "attributes": ["cold", "warm", "far away", "by the sea"],
    "num_rounds": 3,
    "question_limit": 2,
    "max_turns": 60,
}
# a parity test plays few batched steps: the compile is most of its time, and 2.5x shorter without optimisation
TABLES = {"3 players": (3, {}), "4 players": (4, {}), "5 players": (5, {}), "6 players, 3 rounds": (6, LONG_GAME),
          "7 players, own locations": (7, OWN_PLACES), "8 players": (8, {})}


def full_setup(n: int, rounds: int, rng: np.random.Generator, places=DEFAULT_LOCATIONS, given: dict | None = None):
    """`given` with every other draw of the game made here: the dealer, and per round the location, spy and roles."""
    given = given or {}
    names = [place.name for place in places]
    locations = [names.index(x) if isinstance(x, str) else x for x in given.get("locations", [])]
    unplayed = [i for i in range(len(places)) if i not in locations]
    locations += [unplayed[i] for i in rng.permutation(len(unplayed))[: rounds - len(locations)]]
    spies = list(given.get("spies", [])) + [int(s) for s in rng.integers(n, size=rounds)]
    roles = list(given.get("roles", []))
    for r in range(len(roles), rounds):
        dealt = [str(role) for role in rng.permutation(places[locations[r]].roles)[: n - 1]]
        dealt.insert(spies[r], None)
        roles.append(dealt)
    return {"dealer": given.get("dealer", int(rng.integers(n))), "locations": locations, "spies": spies[:rounds],
            "roles": roles}


def mixed_play(ref, rng, mask) -> int:
    """Half of the moves uniformly random, the others rarely stopping the clock, so that rounds run long too."""
    legal = np.flatnonzero(mask)
    kinds = ref.unwrapped.actions.kind
    calm = [a for a in legal if kinds[a] not in (ACCUSE, GUESS)]
    if calm and rng.random() < 0.5:
        return int(rng.choice(calm)) if rng.random() < 0.95 else int(rng.choice(legal))
    return int(rng.choice(legal))


class Scripted:
    """The scenarios' actions by name, game by game, then `mixed_play` to the end."""

    def __init__(self, scripts: dict[int, list[str]]):
        self.scripts = {game: iter(actions) for game, actions in scripts.items()}

    def __call__(self, ref, rng, mask) -> int:
        script = self.scripts.get(id(ref))
        name = next(script, None) if script else None
        if name is None:
            return mixed_play(ref, rng, mask)
        seat, _, action = name.rpartition(": ")
        assert ref.agent_selection == f"player_{seat}", f"{name!r}: {ref.agent_selection} is asked"
        return ref.unwrapped.string_to_action(action)


def play_table(n: int, arguments: dict, games: int, scenarios=(), seed: int = 0) -> parity.Twins:
    """`games` random games and the scenarios, in one batch, compared at every step."""
    rng = np.random.default_rng(seed)
    rounds = arguments.get("num_rounds", 1)
    places = arguments.get("locations", DEFAULT_LOCATIONS)
    setups = [full_setup(n, rounds, rng, places) for _ in range(games)]
    for sc in scenarios:
        given = sc.setup or {"dealer": sc.dealer, "locations": [sc.location], "spies": [sc.spy]}
        setups.append(full_setup(n, rounds, rng, places, given))
    twins = parity.Twins(GAME, n, setups, arguments)
    scripts = {id(twins.refs[games + i]): sc.actions for i, sc in enumerate(scenarios)}
    twins.play(seed=seed, choose=Scripted(scripts))
    return twins


def scenarios_for(n: int, arguments: dict) -> list:
    """The scenarios of n players: those without arguments of their own (any table of n players plays them, they
    end before the arguments matter), and for SHORT_ROUNDS those with theirs."""
    return [sc for sc in SCENARIOS if sc.players == n and bool(sc.kwargs) == (arguments == SHORT_ROUNDS)]


@pytest.mark.parametrize(("n", "arguments"), TABLES.values(), ids=TABLES.keys())
def test_random_games_and_the_scenarios_match_the_reference_at_every_step(n, arguments, parity_games):
    scenarios = [] if "locations" in arguments else scenarios_for(n, arguments)
    twins = play_table(n, arguments, parity_games(30), scenarios, seed=n)
    assert twins.steps_compared > 10, twins.steps_compared  # the longest game's steps
    assert twins.truncated_games > 0 or "max_turns" not in arguments


def test_several_rounds_with_the_clock_running_out_match_the_reference(parity_games):
    """Time up after one question, two rounds: the time-up, scoring and round scenarios, and random games."""
    scenarios = scenarios_for(5, SHORT_ROUNDS)
    assert len(scenarios) >= 10
    assert play_table(5, SHORT_ROUNDS, parity_games(30), scenarios, seed=11).steps_compared > 20


# the event history: a ring of 3 rows that wraps, and 32 rows over two rounds (a round's end and the next deal in
# one step), each with the scenarios of its table (votes, time up, convictions)
HISTORIES = {"3 players, 3 events": (3, {}, 3), "5 players, two short rounds, 32 events": (5, SHORT_ROUNDS, 32)}


@pytest.mark.parametrize(("n", "arguments", "length"), HISTORIES.values(), ids=HISTORIES.keys())
def test_the_event_history_matches_the_reference_at_every_step(n, arguments, length, parity_games):
    """The `history` block too: every event each seat saw, in order, turned to its side."""
    scenarios = scenarios_for(n, arguments)
    assert scenarios
    twins = play_table(n, {**arguments, "history_length": length}, parity_games(30), scenarios, seed=20 + n)
    assert twins.steps_compared > 20, twins.steps_compared


def test_a_setup_may_fix_the_first_rounds_and_the_rest_is_drawn_by_the_rules():
    """Fixed: the first dealer, round 1's location, spy and roles, and round 2's location; the rest is drawn: the
    locations not played, any seat as a spy, distinct roles of the location."""
    env = batched.make("spyfall", num_players=4, num_rounds=3)
    setup = env.setup({"dealer": 2, "locations": ["Bank", "Beach"], "spies": [3],
                       "roles": [["Teller", "Robber", "Manager", None]]})
    deals = parity.fast_jit(jax.vmap(env.game.init, (0, None)))(jax.random.split(jax.random.PRNGKey(0), 2000), setup)
    locations, spies, roles = (np.asarray(a) for a in (deals.locations, deals.spies, deals.roles))
    names = [loc.name for loc in DEFAULT_LOCATIONS]
    bank = DEFAULT_LOCATIONS[names.index("Bank")].roles
    assert (np.asarray(deals.dealer) == 2).all()
    assert (locations[:, :2] == [names.index("Bank"), names.index("Beach")]).all() and (spies[:, 0] == 3).all()
    assert (roles[:, 0] == [bank.index(r) for r in ("Teller", "Robber", "Manager")] + [-1]).all()
    third = np.bincount(locations[:, 2], minlength=len(names))
    assert third[[names.index("Bank"), names.index("Beach")]].sum() == 0 and (third > 0).sum() == len(names) - 2
    assert set(spies[:, 1:].ravel()) == set(range(4))
    for game in range(200):
        for r in (1, 2):
            dealt = roles[game, r]
            assert dealt[spies[game, r]] == -1 and len(set(dealt) - {-1}) == 3
            assert dealt.max() < len(DEFAULT_LOCATIONS[locations[game, r]].roles)
    # a critic in training reads the round's spy, relative to the seat, and its location
    critic = np.asarray(parity.fast_jit(jax.vmap(env.game.critic_view, (0, None)))(deals, 1))
    assert critic.shape == (2000, env.game.critic_size)
    assert (critic[:, (3 - 1) % 4] == 1).all() and (critic[:, 4 + names.index("Bank")] == 1).all()
    assert (critic.sum(axis=1) == 2).all()


def test_the_arguments_and_the_setup_are_checked_as_env_checks_them():
    with pytest.raises(ValueError, match="num_rounds"):
        batched.make("spyfall", num_players=5, num_rounds=27)
    with pytest.raises(ValueError, match="reward"):
        batched.make("spyfall", num_players=5, reward="win")
    env = batched.make("spyfall", num_players=5, num_rounds=2)
    with pytest.raises(ValueError, match="distinct"):
        env.setup({"locations": ["Bank", "Bank"]})
    with pytest.raises(ValueError, match="need that round's location and spy"):
        env.setup({"roles": [["Teller", None, "Robber", "Manager", "Customer"]]})
