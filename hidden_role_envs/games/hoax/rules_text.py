"""Hoax told to a language-model agent: the rules at one table, with its sheet's privileges, and the facts to weigh."""

from __future__ import annotations

from hidden_role_envs.core.seats import agent_name
from hidden_role_envs.games.hoax.cards import NUM_CHARACTERS, RESOURCES, SUPPLY_PER_TYPE, SUSPICION_CARDS_SHOWN
from hidden_role_envs.games.hoax.config import HoaxConfig
from hidden_role_envs.games.hoax.privileges import GIVE, NAMED, NAMED_PLAYER, SWAP, TAKE, Effect
from hidden_role_envs.text.beliefs import BeliefQuestion


def _effect(effect: Effect) -> str:
    resource = "one of the named type" if effect.resource == NAMED else f"1 {RESOURCES[effect.resource]}"
    if effect.kind == TAKE:
        return f"take {resource}"
    if effect.kind == GIVE:
        return f"the named player takes {resource}"
    if effect.kind == SWAP:
        return "swap all your tokens of the named type with the named player's"
    return f"take {resource} from {'the named player' if effect.whom == NAMED_PLAYER else effect.whom}"


def _character(config: HoaxConfig, index: int) -> str:
    character = config.sheet.characters[index]
    options = " or ".join(", then ".join(_effect(e) for e in option.effects) for option in character.options)
    immune = ", ".join(config.sheet.names[c] for c in character.immune_to)
    return f"{character.name}: {options}" + (f" (immune to the {immune})" if immune else "")


def rules(config: HoaxConfig) -> str:
    n = config.num_players
    names = config.sheet.names
    privileges = "; ".join(_character(config, c) for c in range(NUM_CHARACTERS))
    return "\n\n".join([
        f"Each player is dealt one of {NUM_CHARACTERS} characters ({', '.join(names)}) face down; the other "
        f"{NUM_CHARACTERS - n} are unused and nobody sees them. The supply holds {SUPPLY_PER_TYPE} each of Cash, "
        "Evidence and Prestige; before the first turn every player, in turn order, picks one of them.",
        "On your turn you must make exactly one claim, \"I am the <character>\" (any character you have no impostor "
        "token on), and use its privilege, choosing its options with the claim. Then, in any order, you may "
        "investigate another player as often as you can pay 1 Cash, 1 Evidence and 1 Prestige (you alone see "
        f"{SUSPICION_CARDS_SHOWN} suspicion cards: that player's own character and three others drawn at random), "
        "and accuse one player of being a character, once: right, they are out and their tokens go to you; wrong, "
        "you are out. Then you end your turn.",
        "After every claim, the other players are asked in turn whether they call Hoax (the holder of the Hoax card "
        "is skipped; whoever calls takes it). After a call, every player but the claimant votes in secret, thumbs "
        "up or down, and the votes are shown together. A strict majority of thumbs down checks the claim: if it is "
        "true the claimant wins at once; if false the claimant takes an impostor token on that character and the "
        "claim does nothing. When a privilege would take from or swap with you, you may claim a character immune "
        "to it, a claim open to Hoax like any other.",
        f"The privileges: {privileges}. The last player left in wins.",
    ])


def belief_questions(config: HoaxConfig, seat: int) -> list[BeliefQuestion]:
    """Every player's character, from the seat's `knowledge` block (its rows: itself, then the seats to its left)."""
    n = config.num_players
    names = config.sheet.names
    questions = []
    for row in range(n):
        label = "your character" if row == 0 else f"character of {agent_name((seat + row) % n)}"
        entries = tuple(row * NUM_CHARACTERS + c for c in range(NUM_CHARACTERS))
        questions.append(BeliefQuestion(label, names, "knowledge", entries))
    return questions
