"""What the conformance suite needs to know of Hoax: its other tables, leak twins and invariants."""

from __future__ import annotations

import copy

import numpy as np

from hidden_role_envs.games.hoax.actions import ACCUSE, CAST_VOTE, INVESTIGATE, TURN
from hidden_role_envs.games.hoax.cards import NUM_CHARACTERS, SUPPLY_PER_TYPE, SUSPICION_CARDS_SHOWN
from hidden_role_envs.games.hoax.sheet import HOUSE_SHEET
from tests.support import PublicTwin, Twin

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
    """The rulebook's investigation: the target takes out its own suspicion card, then three more from the deck
    (the next deck of the setup, else one shuffled by the seed)."""
    own = engine.characters[target]
    decks = engine.suspicion_decks
    deck = list(decks[0]) if decks else copy.deepcopy(engine.rng).permutation(NUM_CHARACTERS).tolist()
    return frozenset([own] + [c for c in deck if c != own][: SUSPICION_CARDS_SHOWN - 1])


def learns_apart(watcher: int):
    """The rulebook's answer to "does this action show `watcher` a character that differs between the games?"."""

    def learns(env_a, env_b, actor: int, action: int) -> bool:
        a, b = env_a.unwrapped.engine, env_b.unwrapped.engine
        n = a.num_players
        kind, args = a.actions.meaning[action]
        target = (actor + args) % n if kind == INVESTIGATE else None
        if kind == INVESTIGATE and watcher in (actor, target):  # the target draws the four, the investigator sees them
            return shown_cards(a, target) != shown_cards(b, target)
        if kind == ACCUSE:  # everyone hears the answer, yes or no
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


def public_twins(n: int) -> list[PublicTwin]:
    """Only which character was claimed differs (the same privilege, taking 1 Prestige from the supply, and
    false in both games); only who was accused differs (wrongly in both)."""
    lover, cousin = (HOUSE_SHEET.index(row) for row in HOUSE_SHEET if row[0] in ("Lover", "Distant Cousin"))

    def claims(env):
        u = env.unwrapped
        table = u.engine.table
        if table.decision != TURN or table.claimed:
            return None
        pair = u.string_to_action("claim Lover Prestige"), u.string_to_action("claim Distant Cousin Prestige")
        mask = u.engine.legal_mask()
        return pair if mask[pair[0]] and mask[pair[1]] else None

    def accusations(env):
        u = env.unwrapped
        engine = u.engine
        if engine.table.decision != TURN or engine.table.accused:
            return None
        live = [k for k in range(1, n) if not engine.table.eliminated[(engine.table.to_act + k) % n]]
        if len(live) < 2:
            return None
        held = {engine.characters[(engine.table.to_act + k) % n] for k in live[:2]}
        wrong = next(c for c in range(NUM_CHARACTERS) if c not in held)
        return tuple(u.actions.id_of(ACCUSE, (k, wrong)) for k in live[:2])

    def without_lover_or_cousin(seed: int) -> dict:
        order = np.random.default_rng(seed).permutation(NUM_CHARACTERS)
        return {"characters": [int(c) for c in order if c not in (lover, cousin)][:n], "first_player": seed % n}

    return [PublicTwin(claims, seed=seed, setup=without_lover_or_cousin(seed)) for seed in range(6)] + [
        PublicTwin(accusations, seed=seed) for seed in range(3)
    ]


# --- invariants -------------------------------------------------------------


def check_resources(engine) -> None:
    """The 27 tokens are all with a player still in or in the supply, none negative."""
    table = engine.table
    resources = np.array(table.resources)
    assert (resources >= 0).all() and min(table.supply) >= 0
    assert (resources.sum(axis=0) + table.supply).tolist() == [SUPPLY_PER_TYPE] * 3
    assert not resources[table.eliminated].any(), "an eliminated player still holds resources"


def check_step(env) -> None:
    """Resources are conserved; nobody out is asked; knowledge keeps the truth; no ballot shows before the reveal;
    the record holds every impostor token and accounts for every seat out."""
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
        shown_false = vector[fields["claims"]].reshape(n, NUM_CHARACTERS, 3)[:, :, 2] > 0
        assert (vector[fields["impostor"]].reshape(n, NUM_CHARACTERS) <= shown_false).all()
        accusations = vector[fields["accusations"]].reshape(n, n, 2)
        out = accusations[:, :, 0].any(axis=0) | accusations[:, :, 1].any(axis=1)  # rightly accused, wrong accusers
        assert out.tolist() == [table.eliminated[(seat + k) % n] for k in range(n)]
        assert vector[fields["turn"]][0] == min(table.turn, 1000)


def check_end(env, info: dict, received: dict[str, float]) -> None:
    engine = env.unwrapped.engine
    check_resources(engine)
    winner = f"player_{engine.table.winner}"
    assert received == {a: 1.0 if a == winner else -1.0 for a in env.possible_agents}
    assert info["winner"] == winner and info["winners"] == [winner]
    assert set(info["characters"]) == set(env.possible_agents)
    out = [a for a in env.possible_agents if a != winner]
    assert info["eliminated"] == out or "truthfully" in info["result"]
