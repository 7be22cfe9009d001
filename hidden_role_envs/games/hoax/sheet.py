"""The Hoax character sheet: every character's privilege and immunity, as one data table.

The rulebook gives the Butler's and the Son-in-Law's privileges and refers
to a reference sheet it does not contain; the other rows are a HOUSE RULE
(see the game's module docs). The rules engine only interprets this table,
so a game can be played with another sheet by passing it as
`character_sheet=` (it is checked, and refused with a message saying what
is wrong, when malformed).

A sheet is a sequence of 7 rows, one per character card:

    (name, privilege, immune_to)

- `name`: the character, a non-empty string, unique in the sheet.
- `privilege`: `{option label: (effect, ...)}`, the options a claimant picks
  one of ("take 1 Cash OR 1 Evidence"); a privilege with a single option
  labels it "". With several options every label must be non-empty.
  Effects resolve in the order given.
- `immune_to`: names of the characters whose privilege this one is immune to.

Effects, where R is `Cash`, `Evidence`, `Prestige` or `named type`:

| effect | meaning |
|---|---|
| `take R` | the claimant takes one R from the supply |
| `named player takes R` | the named player takes one R from the supply |
| `take R from each other player` | one R from every other player, in turn order |
| `take R from each neighbour` | one R from the left and from the right neighbour |
| `take R from named player` | one R from the named player |
| `swap R with named player` | the claimant and the named player swap all their tokens of type R |

`named type` and `named player` are choices made with the claim, one of
each per option, shared by all its effects; the named player is another
player still in the game. The last three effects take from or swap with
players, so those players may answer with an immunity.
"""

HOUSE_SHEET = (
    ("Butler", {"": ("take Cash", "named player takes Prestige")}, ()),
    ("Son-in-Law", {"": ("take named type from each other player",)}, ()),
    (
        "Ex-Wife",
        {
            "Cash": ("take Cash",),
            "Evidence": ("take Evidence",),
            "neighbours": ("take named type from each neighbour",),
        },
        ("Gardener",),
    ),
    ("Lover", {"Evidence": ("take Evidence",), "Prestige": ("take Prestige",)}, ("Son-in-Law",)),
    ("Distant Cousin", {"Cash": ("take Cash",), "Prestige": ("take Prestige",)}, ("Chef",)),
    ("Chef", {"": ("swap named type with named player",)}, ("Gardener",)),
    ("Gardener", {"": ("take Evidence", "take named type from named player")}, ("Ex-Wife",)),
)
