"""Spyfall action ids and their names.

Seats in actions are RELATIVE to the seat that acts: `+1` is its left
neighbour (the next seat in turn order), `+2` the one after, and so on.
With n players, A attributes and L locations the ids are, in order:

| ids | name | used for |
|---|---|---|
| (n-1)*A | `ask +k about <attribute>` | the asker's question |
| 2 | `answer yes`, `answer no` | the asked player's answer |
| 1 | `pass` | let the interruption window (or a time-up accusation turn) go by |
| n-1 | `accuse +k` | stop the clock and accuse; also the time-up accusation |
| L | `guess <Location>` | the spy reveals and names the location |
| 2 | `vote yes`, `vote no` | a vote on an accusation |

Examples with the default locations (23 attributes, 26 locations) at 5
players: `string_to_action("ask +2 about loud")` is 23 + 6 = 29 and
`action_to_string(92)` is `"answer yes"`; there are 92 + 2 + 1 + 4 + 26 + 2 =
127 ids.
"""

from __future__ import annotations

from hidden_role_envs.core.actions import Action, ActionTable

# What an action does: its kind. Arguments: ASK `(k, attribute)`, ANSWER and VOTE `True` for yes, ACCUSE the
# relative seat `k`, GUESS the location index, PASS `None`.
ASK, ANSWER, PASS, ACCUSE, GUESS, VOTE = range(6)


class SpyfallActions(ActionTable):
    """`SpyfallActions.of(num_players, attributes, location_names)`."""

    def actions(self, num_players: int, attributes: tuple[str, ...], location_names: tuple[str, ...]):
        others = range(1, num_players)
        for k in others:
            for a, attribute in enumerate(attributes):
                yield Action(f"ask +{k} about {attribute}", ASK, (k, a))
        yield Action("answer yes", ANSWER, True)
        yield Action("answer no", ANSWER, False)
        yield Action("pass", PASS)
        for k in others:
            yield Action(f"accuse +{k}", ACCUSE, k)
        for index, name in enumerate(location_names):
            yield Action(f"guess {name}", GUESS, index)
        yield Action("vote yes", VOTE, True)
        yield Action("vote no", VOTE, False)


def spyfall_belief_links(config) -> list[tuple[str, int, str, int]]:
    """A guess acts on the seat's belief in that location and on the share of the answers that are false there, an
    accusation on its belief that the accused is the spy."""
    table = spyfall_actions(config)
    links = [("guess", a, "location_belief", table.args[a]) for a in table.of_kind[GUESS]]
    links += [("guess_false_share", a, "location_false_share", table.args[a]) for a in table.of_kind[GUESS]]
    return links + [("accuse", a, "spy_belief", table.args[a]) for a in table.of_kind[ACCUSE]]


def spyfall_actions(config) -> SpyfallActions:
    """The action table of a configuration (shared by every configuration with the same seats and places)."""
    return SpyfallActions.of(config.num_players, config.places.attributes, config.places.names)
