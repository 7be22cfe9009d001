"""What the conformance suite needs to know of Hoax: its other tables, leak twins and invariants."""

from __future__ import annotations

import copy

import numpy as np

from hidden_role_envs.games.hoax.actions import ACCUSE, CAST_VOTE, INVESTIGATE
from hidden_role_envs.games.hoax.cards import NUM_CHARACTERS, SUPPLY_PER_TYPE, SUSPICION_CARDS_SHOWN
from hidden_role_envs.games.hoax.sheet import HOUSE_SHEET
from tests.support import Twin

# A replacement sheet: a renamed character with two options, one of them taking from every other player,
# immune to the Chef.
MAID_SHEET = (
    ("Maid", {"dust": ("take Prestige", "named player takes Cash"),
              "steal": ("take named type from each other player",)}, ("Chef",)),
    *HOUSE_SHEET[1:],
)
CONFIGS = [(4, {"character_sheet": MAID_SHEET})]
GAMES_PER_TABLE = 400  # x 4 player counts = 1,600 games; test_rules plays 400 more, cautiously


def playouts(n: int, arguments: dict) -> int:
    return GAMES_PER_TABLE if not arguments else 100


# --- leak twins -------------------------------------------------------------


def deal(n: int, seed: int) -> list[int]:
    return [int(c) for c in np.random.default_rng(seed).permutation(NUM_CHARACTERS)[:n]]


def shown_cards(engine, target: int) -> frozenset[int]:
    """The rulebook's investigation: the target's own suspicion card and three drawn from the other six."""
    own = engine.characters[target]
    others = [c for c in range(NUM_CHARACTERS) if c != own]
    drawn = copy.deepcopy(engine.rng).choice(len(others), SUSPICION_CARDS_SHOWN - 1, replace=False)
    return frozenset([own] + [others[i] for i in drawn])


def learns_apart(watcher: int):
    """The rulebook's answer to "does this action show `watcher` a character that differs between the games?"."""

    def learns(env_a, env_b, actor: int, action: int) -> bool:
        a, b = env_a.unwrapped.engine, env_b.unwrapped.engine
        n = a.num_players
        kind, args = a.actions.meaning[action]
        if kind == INVESTIGATE and actor == watcher:  # the four cards are shown to the investigator alone
            target = (actor + args) % n
            return shown_cards(a, target) != shown_cards(b, target)
        if kind == ACCUSE:  # everyone sees whether it was right
            offset, character = args
            target = (actor + offset) % n
            return (a.characters[target] == character) != (b.characters[target] == character)
        if kind == CAST_VOTE and len(a._voters) == 1:  # the last ballot: a thumbs-down majority checks the claim
            ballots = [*a._ballots.values(), args]
            claim = a.table.immunity or a.table.claim
            checked = ballots.count(-1) > ballots.count(1)
            return checked and (a.characters[claim.claimant] == claim.character) != (
                b.characters[claim.claimant] == claim.character
            )
        return False

    return learns


def curious(env, rng: np.random.Generator, mask: np.ndarray) -> int:
    """Random play that investigates when it can and seldom accuses, so that games last and knowledge grows."""
    kinds = env.unwrapped.actions.kind
    legal = np.flatnonzero(mask)
    investigations = [a for a in legal if kinds[a] == INVESTIGATE]
    if investigations and rng.random() < 0.5:
        return int(rng.choice(investigations))
    calm = [a for a in legal if kinds[a] != ACCUSE]
    return int(rng.choice(calm if calm and rng.random() < 0.9 else legal))


def twins(n: int) -> list[Twin]:
    """Two other seats' characters swapped, or one of them replaced by an unused character."""
    cases = []
    for trial in range(16):
        characters = deal(n, trial)
        watcher = trial % n
        other = characters[:]
        if trial % 2:
            other[(watcher + 1) % n] = next(c for c in range(NUM_CHARACTERS) if c not in characters)
        else:
            p, q = [(watcher + k) % n for k in (1, 2)]
            other[p], other[q] = other[q], other[p]
        setups = ({"characters": characters, "first_player": 0}, {"characters": other, "first_player": 0})
        cases.append(Twin(setups, watcher, learns_apart(watcher), seed=trial, arguments={"max_turns": 30},
                          choose=curious))
    return cases


# --- invariants -------------------------------------------------------------


def check_resources(engine) -> None:
    """The 27 tokens are all with a player still in or in the supply, none negative."""
    table = engine.table
    resources = np.array(table.resources)
    assert (resources >= 0).all() and min(table.supply) >= 0
    assert (resources.sum(axis=0) + table.supply).tolist() == [SUPPLY_PER_TYPE] * 3
    assert not resources[table.eliminated].any(), "an eliminated player still holds resources"


def check_step(env) -> None:
    """Resources are conserved; nobody out is asked; knowledge keeps the truth; no ballot shows before the reveal."""
    engine = env.unwrapped.engine
    check_resources(engine)
    n = engine.num_players
    table = engine.table
    assert engine.is_over or not table.eliminated[engine.current_player], "a player who is out is asked to act"
    fields = env.unwrapped.observation_fields
    for seat in range(n):
        vector = env.observe(f"player_{seat}")["observation"]
        probs = vector[fields["knowledge"]].reshape(n, NUM_CHARACTERS)
        assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)
        truth = [engine.characters[(seat + k) % n] for k in range(n)]
        assert all(probs[row, c] > 0 for row, c in enumerate(truth)), "knowledge ruled out the truth"
        revealed = [table.votes[(seat + k) % n] for k in range(n)]  # the last vote revealed, never the ballots
        assert vector[fields["votes"]].reshape(n, 2).tolist() == [[v > 0, v < 0] for v in revealed]


def check_end(env, info: dict, received: dict[str, float]) -> None:
    engine = env.unwrapped.engine
    check_resources(engine)
    winner = f"player_{engine.table.winner}"
    assert received == {a: 1.0 if a == winner else -1.0 for a in env.possible_agents}
    assert info["winner"] == winner and info["winners"] == [winner]
    assert set(info["characters"]) == set(env.possible_agents)
    out = [a for a in env.possible_agents if a != winner]
    assert info["eliminated"] == out or "truthfully" in info["result"]
