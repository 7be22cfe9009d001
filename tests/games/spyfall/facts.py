"""What the conformance suite needs to know of Spyfall: its other tables, leak twins and invariants."""

from __future__ import annotations

import numpy as np

from hidden_role_envs.games.spyfall.actions import ACCUSE, ASK, GUESS, PASS, VOTE
from hidden_role_envs.games.spyfall.locations import DEFAULT_LOCATIONS
from hidden_role_envs.games.spyfall.rules import longest_game
from tests.support import PublicTwin, Twin

CONFIGS = [(5, {"num_rounds": 3, "question_limit": 6}), (4, {"num_rounds": 2, "question_limit": 1})]
GAMES_PER_TABLE = 300  # x 6 player counts, and 100 for each other configuration: 2,000 games
NAMES = [loc.name for loc in DEFAULT_LOCATIONS]
RESULTS = {
    "nobody was convicted: the spy wins": "spy 2",
    "a non-spy was convicted: the spy wins": "spy 4",
    "the spy named the location: the spy wins": "spy 4",
    "the spy named the wrong location: the non-spies win": "non-spies 1",
    "the spy was convicted: the non-spies win": "non-spies 1, accuser 2",
}


def playouts(n: int, arguments: dict) -> int:
    return GAMES_PER_TABLE if not arguments else 100


# --- leak twins -------------------------------------------------------------


def ends_the_round(env_a, env_b, actor: int, action: int) -> bool:
    """The rulebook's answer to "does this action end the round?": at the end, the cards are shown to everyone.

    A round ends when the spy names a location, when a vote is unanimous, or
    when time is up and the last seat has had its turn to accuse.
    """
    engine = env_a.unwrapped.engine
    table = engine.table
    kind, yes = engine.actions.meaning[action]
    last_turn_at_time_up = table.time_up and engine.final_turns == engine.num_players - 1
    if kind == GUESS:
        return True
    if kind == VOTE and table.votes_cast + 1 == len(table.voters):  # the last vote of an accusation
        return (yes and all(engine.ballots.values())) or last_turn_at_time_up
    return kind == PASS and last_turn_at_time_up


def never(env_a, env_b, actor: int, action: int) -> bool:
    """Another seat's role is never shown: not when the round ends, nor when the game does."""
    return False


def patient(env, rng, mask) -> int:
    """Random play that passes 7 times in 10 when it may, so that rounds run long."""
    pass_id = env.unwrapped.actions.id_of(PASS)
    return pass_id if mask[pass_id] and rng.random() < 0.7 else int(rng.choice(mask.nonzero()[0]))


def twins(n: int) -> list[Twin]:
    """The spy's twins differ in the location, which it learns when the round ends; a non-spy's in another non-spy's
    role, which it never learns. (Twins differing in who the spy is would differ in the spy's legal actions.)"""
    cases = []
    for trial in range(8):
        rng = np.random.default_rng(trial)
        spy, dealer = int(rng.integers(n)), int(rng.integers(n))
        first, second = (NAMES[i] for i in rng.choice(len(NAMES), 2, replace=False))
        base = {"dealer": dealer, "spies": [spy]}
        arguments = {"num_rounds": 1 + trial % 2, "question_limit": 8}
        cases.append(Twin(({**base, "locations": [first]}, {**base, "locations": [second]}), spy, ends_the_round,
                          seed=trial, arguments=arguments, choose=patient))
        watcher, *others = (s for s in rng.permutation(n).tolist() if s != spy)
        roles = iter(rng.permutation(DEFAULT_LOCATIONS[NAMES.index(first)].roles).tolist())
        roles_a = [None if s == spy else next(roles) for s in range(n)]
        roles_b = list(roles_a)
        if len(others) > 1:  # two other seats swap their roles
            roles_b[others[0]], roles_b[others[1]] = roles_a[others[1]], roles_a[others[0]]
        else:  # the other seat holds a role nobody holds in the other game
            roles_b[others[0]] = next(roles)
        cases.append(Twin(({**base, "locations": [first], "roles": [roles_a]},
                           {**base, "locations": [first], "roles": [roles_b]}), watcher, never, seed=trial,
                          arguments=arguments, choose=patient))
    return cases


def public_twins(n: int) -> list[PublicTwin]:
    """Only which attribute is asked differs (the same seat is asked); only who is accused differs (the two seats
    furthest to the accuser's left, so that the votes start in the same order)."""

    def attributes(env):
        u = env.unwrapped
        mask = u.observe(env.agent_selection)["action_mask"]
        asks = [a for a in u.actions.of_kind[ASK] if mask[a]]
        return (asks[0], asks[1]) if asks else None

    def accused(env):
        u = env.unwrapped
        mask = u.observe(env.agent_selection)["action_mask"]
        furthest = [u.actions.id_of(ACCUSE, k) for k in (n - 2, n - 1)]
        return tuple(furthest) if all(mask[a] for a in furthest) else None

    return [PublicTwin(attributes, seed=seed) for seed in range(3)] + [PublicTwin(accused, seed=seed)
                                                                        for seed in range(3)]


# --- invariants -------------------------------------------------------------


def check_deal(engine) -> None:
    n = engine.num_players
    roles = engine.roles
    assert 0 <= engine.spy < n and roles[engine.spy] == -1
    dealt = [roles[s] for s in range(n) if s != engine.spy]
    assert len(set(dealt)) == n - 1 and all(r >= 0 for r in dealt)
    if not engine.is_over:
        assert engine.location not in engine.table.played


def check_table(engine) -> None:
    table = engine.table
    assert 0 <= table.questions <= engine.config.question_limit
    assert len(set(table.played)) == len(table.played)
    if table.accused != -1:
        assert table.accused not in table.voters and table.accuser not in table.voters
        assert len(table.voters) == engine.num_players - 2 and table.votes_cast < len(table.voters)
    if engine.finished and not engine.is_over:
        assert table.dealer == engine.finished[-1].spy  # the spy of a round deals the next


def check_knowledge(env) -> None:
    """No seat's beliefs rule out the truth; a non-spy knows the place and that it is not the spy."""
    engine = env.unwrapped.engine
    fields = env.unwrapped.observation_fields
    n = engine.num_players
    for seat in range(n):
        obs = env.observe(f"player_{seat}")["observation"]
        location, spy = obs[fields["location_belief"]], obs[fields["spy_belief"]]
        assert abs(location.sum() - 1) < 1e-5 and abs(spy.sum() - 1) < 1e-5
        assert location[engine.location] > 0, "the belief rules out the true location"
        assert spy[(engine.spy - seat) % n] > 0, "the belief rules out the true spy"
        if seat != engine.spy:
            assert spy[0] == 0 and location[engine.location] == 1


def check_step(env) -> None:
    engine = env.unwrapped.engine
    check_deal(engine)
    check_table(engine)
    check_knowledge(env)


def check_round_points(rnd: dict, agents: list[str]) -> None:
    """The rulebook's scoring table, from the revealed spy and the result."""
    points, spy = rnd["points"], rnd["spy"]
    kind = RESULTS[rnd["result"]]
    if kind.startswith("spy"):
        assert points == {a: (int(kind[-1]) if a == spy else 0) for a in agents}
    else:
        assert points[spy] == 0
        others = sorted(points[a] for a in agents if a != spy)
        accuser = [2] if kind.endswith("accuser 2") else []
        assert others == [1] * (len(agents) - 1 - len(accuser)) + accuser


def check_end(env, info: dict, received: dict[str, float]) -> None:
    engine = env.unwrapped.engine
    agents = env.possible_agents
    check_deal(engine)
    check_table(engine)
    assert engine.turns_played <= longest_game(engine.config)
    rounds = info["rounds"]
    assert len(rounds) == env.unwrapped.config.num_rounds
    assert len({r["location"] for r in rounds}) == len(rounds)
    for previous, following in zip(rounds, rounds[1:]):
        assert following["dealer"] == previous["spy"]
    for rnd in rounds:
        check_round_points(rnd, agents)
    totals = {a: sum(r["points"][a] for r in rounds) for a in agents}
    assert info["scores"] == totals
    assert received == {a: float(v) for a, v in totals.items()}, "the rewards are not the points"
    best = max(totals.values())
    assert info["winners"] == [a for a in agents if totals[a] == best]
    assert engine.outcome("points").rewards == (0.0,) * engine.num_players
