"""Hoax as the shared adapter sees it, and its text for people."""

from __future__ import annotations

from hidden_role_envs.core.definition import GameDefinition
from hidden_role_envs.core.game import Event
from hidden_role_envs.games.hoax.actions import DECISIONS, HoaxActions, action_table
from hidden_role_envs.games.hoax.cards import MAX_PLAYERS, MIN_PLAYERS, RESOURCES
from hidden_role_envs.games.hoax.observation import HoaxObserver
from hidden_role_envs.games.hoax.privileges import CharacterSheet
from hidden_role_envs.games.hoax.rules import NOBODY, SUPPLY, Claim, HoaxConfig, HoaxGame
from hidden_role_envs.games.hoax.sheet import HOUSE_SHEET


def _seat(seat: int, viewer: int) -> str:
    return "you" if seat == viewer else f"player_{seat}"


def _does(seat: int, viewer: int, verb: str) -> str:
    """`you take` or `player_2 takes`, for a verb given in its base form."""
    return f"you {verb}" if seat == viewer else f"player_{seat} {verb}s"


def _whose(seat: int, viewer: int) -> str:
    return "your" if seat == viewer else f"player_{seat}'s"


def describe_claim(claim: Claim, sheet: CharacterSheet, viewer: int) -> str:
    """`player_2 claims to be the Chef (swap Cash with player_4)`, in words."""
    character = sheet.characters[claim.character]
    if claim.option == NOBODY:
        return f"{_does(claim.claimant, viewer, 'claim')} the {character.name}'s immunity"
    option = character.options[claim.option]
    choices = [option.label] if option.label else []
    if claim.resource != NOBODY:
        choices.append(RESOURCES[claim.resource])
    if claim.player != NOBODY:
        choices.append(_seat(claim.player, viewer))
    said = f" ({', '.join(choices)})" if choices else ""
    return f"{_does(claim.claimant, viewer, 'claim')} to be the {character.name}{said}"


_HOUSE = CharacterSheet(HOUSE_SHEET)  # one object: the envs that use it share their action and seat tables


class HoaxDefinition(GameDefinition):
    """Hoax for the adapter; the character sheet travels in the config."""

    name = "hoax"
    version = 0
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    default_players = 5

    def configure(self, num_players: int, character_sheet=None) -> HoaxConfig:
        sheet = _HOUSE if character_sheet is None else CharacterSheet(character_sheet)
        return HoaxConfig(num_players=num_players, sheet=sheet)

    def action_table(self, config: HoaxConfig) -> HoaxActions:
        return action_table(config.num_players, config.sheet)

    def new_game(self, config: HoaxConfig, rng, setup: dict | None) -> HoaxGame:
        return HoaxGame(config, action_table(config.num_players, config.sheet), rng, setup)

    def new_observer(self, config: HoaxConfig) -> HoaxObserver:
        return HoaxObserver(config)

    def describe_table(self, engine: HoaxGame) -> str:
        table = engine.table
        sheet = engine.sheet
        n = engine.num_players
        when = f"over after {table.turn} turns" if engine.is_over else f"turn {table.turn + 1}"
        holder = "in the centre" if table.hoax_holder == NOBODY else f"with player_{table.hoax_holder}"
        lines = [f"Hoax, {n} players, {when}; the Hoax card is {holder}"]
        for seat in range(n):
            if table.eliminated[seat]:
                state = "out"
            else:
                state = ", ".join(f"{k} {r}" for k, r in zip(table.resources[seat], RESOURCES))
            tokens = [sheet.names[c] for c in range(len(sheet.names)) if table.impostor[seat][c]]
            impostor = f"; impostor on {', '.join(tokens)}" if tokens else ""
            active = " (active)" if seat == table.active and not engine.is_over else ""
            lines.append(f"  player_{seat}{active}: {state}{impostor}")
        lines.append("  supply: " + ", ".join(f"{k} {r}" for k, r in zip(table.supply, RESOURCES)))
        if any(table.votes):
            votes = [f"player_{s} {'up' if v > 0 else 'down'}" for s, v in enumerate(table.votes) if v]
            lines.append("  last vote: " + ", ".join(votes))
        if engine.is_over:
            return "\n".join(lines)
        if table.claim is not None:
            lines.append("  " + describe_claim(table.claim, sheet, NOBODY))
        if table.immunity is not None:
            lines.append("  " + describe_claim(table.immunity, sheet, NOBODY))
        lines.append(f"  decision: player_{table.to_act} must {DECISIONS[table.decision]}")
        return "\n".join(lines)

    def describe_event(self, event: Event, viewer: int, engine: HoaxGame) -> str | None:
        kind, _, data = event
        sheet = engine.config.sheet
        names = sheet.names
        if kind == "dealt":
            return f"you are the {names[data[1]]}"
        if kind == "first_player":
            return f"{_does(data[0], viewer, 'play')} first"
        if kind == "turn_started":
            return f"{_does(data[0], viewer, 'start')} a turn"
        if kind == "claimed":
            return describe_claim(data[0], sheet, viewer)
        if kind == "immunity_claimed":
            return describe_claim(data[0], sheet, viewer)
        if kind == "hoax_called":
            return f"{_does(data[0], viewer, 'call')} Hoax!"
        if kind == "no_hoax":
            return f"{_does(data[0], viewer, 'let')} the claim pass"
        if kind == "voted":
            return f"you voted thumbs {'up' if data[1] > 0 else 'down'}"
        if kind == "vote_cast":
            return f"{_seat(data[0], viewer)} voted"
        if kind == "votes_revealed":
            votes = data[0]
            ups = sum(1 for v in votes if v > 0)
            downs = sum(1 for v in votes if v < 0)
            return f"the votes: {ups} thumbs up, {downs} thumbs down"
        if kind == "claim_checked":
            seat, character, truthful = data
            verdict = "true" if truthful else "false"
            return f"{_whose(seat, viewer)} claim to be the {names[character]} was {verdict}"
        if kind == "impostor":
            return f"{_does(data[0], viewer, 'take')} an impostor token on the {names[data[1]]}"
        if kind == "claim_stands":
            return f"{_whose(data[0], viewer)} claim stands"
        if kind == "no_immunity":
            return f"{_does(data[0], viewer, 'claim')} no immunity"
        if kind == "immune":
            return "you are immune" if data[0] == viewer else f"player_{data[0]} is immune"
        if kind == "moved":
            giver, taker, resource, count = data
            source = "the supply" if giver == SUPPLY else _seat(giver, viewer)
            sink = "the supply" if taker == SUPPLY else _seat(taker, viewer)
            return f"{count} {RESOURCES[resource]} from {source} to {sink}"
        if kind == "nothing_to_take":
            giver, taker, resource = data
            source = "the supply" if giver == SUPPLY else _seat(giver, viewer)
            return f"{'you have' if giver == viewer else source + ' has'} no {RESOURCES[resource]} to give"
        if kind == "swapped":
            a, b, resource = data
            return f"{_seat(a, viewer)} and {_seat(b, viewer)} swap their {RESOURCES[resource]}"
        if kind == "investigated":
            return f"{_does(data[0], viewer, 'investigate')} {_seat(data[1], viewer)}"
        if kind == "shown":
            _, target, cards = data
            return f"{_whose(target, viewer)} suspicion cards: {', '.join(names[c] for c in cards)}"
        if kind == "accused":
            accuser, target, character, right = data
            verdict = "right" if right else "wrong"
            accused = f"{_does(accuser, viewer, 'accuse')} {_seat(target, viewer)}"
            return f"{accused} of being the {names[character]}: {verdict}"
        if kind == "eliminated":
            return "you are out of the game" if data[0] == viewer else f"player_{data[0]} is out of the game"
        if kind == "game_over":
            return f"the game is over: {data[1]}"
        return None
