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

from hidden_role_envs.core.definition import ActionTable

# What an action does (the first element of `meaning[id]`).
ASK, ANSWER, PASS, ACCUSE, GUESS, VOTE = range(6)


class SpyfallActions(ActionTable):
    """Names, ids and meanings: `meaning[id]` is `(kind, argument)`.

    Arguments: ASK `(k, attribute)`, ANSWER and VOTE `True` for yes, ACCUSE
    the relative seat `k`, GUESS the location index, PASS `None`.
    """

    def __init__(self, num_players: int, attributes: tuple[str, ...], location_names: tuple[str, ...]):
        others = range(1, num_players)
        entries: list[tuple[str, int, object]] = []
        for k in others:
            for a, attribute in enumerate(attributes):
                entries.append((f"ask +{k} about {attribute}", ASK, (k, a)))
        entries.append(("answer yes", ANSWER, True))
        entries.append(("answer no", ANSWER, False))
        entries.append(("pass", PASS, None))
        for k in others:
            entries.append((f"accuse +{k}", ACCUSE, k))
        for index, name in enumerate(location_names):
            entries.append((f"guess {name}", GUESS, index))
        entries.append(("vote yes", VOTE, True))
        entries.append(("vote no", VOTE, False))
        super().__init__([name for name, _, _ in entries])
        self.meaning = tuple((kind, arg) for _, kind, arg in entries)
        self.of_kind = {kind: [a for a, (k, _) in enumerate(self.meaning) if k == kind] for kind in range(6)}
        self.num_attributes = len(attributes)

    def ask(self, offset: int, attribute: int) -> int:
        return (offset - 1) * self.num_attributes + attribute

    def accuse(self, offset: int) -> int:
        return self.of_kind[ACCUSE][offset - 1]

    def guess(self, location: int) -> int:
        return self.of_kind[GUESS][location]
