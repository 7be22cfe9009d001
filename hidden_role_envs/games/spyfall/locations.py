"""The locations of Spyfall: names, roles and the yes/no attributes questions ask about.

A location is a `Location(name, roles, attributes)`: its name, the roles of
its cards (one per non-spy, all distinct) and the set of ATTRIBUTES that are
true there. Questions ask a player about one attribute ("is it loud
there?"), so the attributes are what a spy can learn and what a non-spy can
use to test the others.

The default set is the rulebook's box: 26 locations with 7 roles each, and
23 attributes listed from common to rare (`indoors` holds at 22 locations,
`cold` at 2): asking about a common attribute hides the place from the spy,
asking about a rare one is pointed. Every two locations differ in at least
two attributes, so a single lie cannot make two of them look the same.

Users may pass their own `locations` (and `attributes`); `LocationSet`
checks them and refuses a malformed set with a ValueError saying what is
wrong.
"""

from __future__ import annotations

from itertools import combinations
from typing import NamedTuple

import numpy as np

MIN_DISTANCE = 2  # attributes in which every two locations must differ


class Location(NamedTuple):
    name: str
    roles: tuple[str, ...]
    attributes: frozenset[str]  # the attributes that are true at this location


# From common to rare (the number of default locations where each holds is checked by the tests).
ATTRIBUTES = (
    "indoors",
    "staff in uniform",
    "food is served",
    "money changes hands",
    "busy at night",
    "people sleep there",
    "loud",
    "dangerous",
    "visitors and tourists",
    "weapons",
    "moving",
    "luxury",
    "run by the state",
    "medical care",
    "historic",
    "shows and performances",
    "children",
    "learning and research",
    "on the water",
    "far from everyone",
    "animals",
    "religious",
    "cold",
)


def _location(name: str, roles: str, attributes: str) -> Location:
    roles_of = tuple(r.strip() for r in roles.split(","))
    return Location(name, roles_of, frozenset(a.strip() for a in attributes.split(",")))


DEFAULT_LOCATIONS = (
    _location(
        "Airplane",
        "First Class Passenger, Air Marshal, Mechanic, Economy Class Passenger, Flight Attendant, Co-Pilot, Captain",
        "indoors, staff in uniform, money changes hands, food is served, busy at night, people sleep there, "
        "visitors and tourists, moving, far from everyone",
    ),
    _location(
        "Bank",
        "Armored Car Driver, Manager, Consultant, Customer, Robber, Security Guard, Teller",
        "indoors, staff in uniform, money changes hands, weapons",
    ),
    _location(
        "Beach",
        "Beach Waitress, Kite Surfer, Lifeguard, Thief, Beach Goer, Beach Photographer, Ice Cream Truck Driver",
        "money changes hands, food is served, visitors and tourists, children, on the water",
    ),
    _location(
        "Cathedral",
        "Priest, Beggar, Sinner, Parishioner, Tourist, Sponsor, Choir Singer",
        "indoors, visitors and tourists, historic, religious",
    ),
    _location(
        "Circus Tent",
        "Acrobat, Animal Trainer, Magician, Visitor, Fire Eater, Clown, Juggler",
        "indoors, money changes hands, food is served, busy at night, loud, dangerous, shows and performances, "
        "children, animals",
    ),
    _location(
        "Corporate Party",
        "Entertainer, Manager, Unwelcome Guest, Owner, Secretary, Accountant, Delivery Boy",
        "indoors, food is served, busy at night, loud, luxury",
    ),
    _location(
        "Crusader Army",
        "Monk, Prisoner, Servant, Bishop, Squire, Archer, Knight",
        "staff in uniform, people sleep there, dangerous, weapons, moving, historic, animals, religious",
    ),
    _location(
        "Casino",
        "Bartender, Head Security Guard, Bouncer, Manager, Hustler, Dealer, Gambler",
        "indoors, staff in uniform, money changes hands, food is served, busy at night, loud, luxury, "
        "shows and performances",
    ),
    _location(
        "Day Spa",
        "Customer, Stylist, Masseuse, Manicurist, Makeup Artist, Dermatologist, Beautician",
        "indoors, staff in uniform, money changes hands, luxury, medical care",
    ),
    _location(
        "Embassy",
        "Security Guard, Secretary, Ambassador, Government Official, Tourist, Refugee, Diplomat",
        "indoors, staff in uniform, visitors and tourists, weapons, luxury, run by the state",
    ),
    _location(
        "Hospital",
        "Nurse, Doctor, Anesthesiologist, Intern, Patient, Therapist, Surgeon",
        "indoors, staff in uniform, food is served, busy at night, people sleep there, medical care, children",
    ),
    _location(
        "Hotel",
        "Doorman, Security Guard, Manager, Housekeeper, Customer, Bartender, Bellman",
        "indoors, staff in uniform, money changes hands, food is served, busy at night, people sleep there, "
        "visitors and tourists, luxury",
    ),
    _location(
        "Military Base",
        "Deserter, Colonel, Medic, Soldier, Sniper, Officer, Tank Engineer",
        "staff in uniform, people sleep there, loud, dangerous, weapons, medical care, run by the state",
    ),
    _location(
        "Movie Studio",
        "Stunt Man, Sound Engineer, Camera Man, Director, Costume Artist, Actor, Producer",
        "indoors, loud, dangerous, shows and performances",
    ),
    _location(
        "Ocean Liner",
        "Rich Passenger, Cook, Captain, Bartender, Musician, Waiter, Mechanic",
        "indoors, staff in uniform, money changes hands, food is served, busy at night, people sleep there, "
        "visitors and tourists, moving, luxury, shows and performances, on the water",
    ),
    _location(
        "Passenger Train",
        "Mechanic, Border Patrol, Train Attendant, Passenger, Restaurant Chef, Engineer, Stoker",
        "indoors, staff in uniform, money changes hands, food is served, busy at night, people sleep there, "
        "loud, visitors and tourists, moving",
    ),
    _location(
        "Pirate Ship",
        "Cook, Sailor, Deckhand, Cannoneer, Bound Prisoner, Cabin Boy, Brave Captain",
        "food is served, people sleep there, loud, dangerous, weapons, moving, historic, on the water",
    ),
    _location(
        "Polar Station",
        "Medic, Geologist, Expedition Leader, Biologist, Radioman, Hydrologist, Meteorologist",
        "indoors, people sleep there, dangerous, medical care, learning and research, far from everyone, cold",
    ),
    _location(
        "Police Station",
        "Detective, Lawyer, Journalist, Criminalist, Archivist, Patrol Officer, Criminal",
        "indoors, staff in uniform, busy at night, dangerous, weapons, run by the state",
    ),
    _location(
        "Restaurant",
        "Musician, Customer, Bouncer, Hostess, Head Chef, Food Critic, Waiter",
        "indoors, staff in uniform, money changes hands, food is served, busy at night, loud",
    ),
    _location(
        "School",
        "Gym Teacher, Student, Principal, Security Guard, Janitor, Lunch Lady, Maintenance Man",
        "indoors, food is served, loud, run by the state, children, learning and research",
    ),
    _location(
        "Space Station",
        "Engineer, Alien, Space Tourist, Pilot, Commander, Scientist, Doctor",
        "indoors, staff in uniform, people sleep there, dangerous, moving, medical care, run by the state, "
        "learning and research, far from everyone, cold",
    ),
    _location(
        "Submarine",
        "Cook, Commander, Sonar Technician, Electronics Technician, Sailor, Radioman, Navigator",
        "indoors, staff in uniform, food is served, people sleep there, dangerous, weapons, moving, "
        "run by the state, on the water, far from everyone",
    ),
    _location(
        "Supermarket",
        "Customer, Cashier, Butcher, Janitor, Security Guard, Food Sample Demonstrator, Shelf Stocker",
        "indoors, staff in uniform, money changes hands, food is served, children",
    ),
    _location(
        "Theater",
        "Coat Check Lady, Prompter, Cashier, Visitor, Director, Actor, Crewman",
        "indoors, money changes hands, busy at night, visitors and tourists, historic, shows and performances",
    ),
    _location(
        "University",
        "Graduate Student, Professor, Dean, Psychologist, Maintenance Man, Student, Janitor",
        "indoors, food is served, historic, learning and research",
    ),
)


class LocationSet:
    """A checked set of locations and the attribute matrix questions read.

    `matrix[l, a]` is 1 when attribute `a` holds at location `l`.
    `max_roles` is the most roles any location has (the width of the role
    block of the observation).
    """

    def __init__(self, locations, attributes, num_players: int):
        self.attributes = _check_attributes(attributes)
        self.locations = _check_locations(locations, self.attributes, num_players)
        self.names = tuple(loc.name for loc in self.locations)
        self.matrix = np.array(
            [[a in loc.attributes for a in self.attributes] for loc in self.locations], dtype=np.int8
        )
        for i, j in combinations(range(len(self.locations)), 2):
            distance = int(np.sum(self.matrix[i] != self.matrix[j]))
            if distance < MIN_DISTANCE:
                raise ValueError(
                    f"locations {self.names[i]!r} and {self.names[j]!r} differ in {distance} attribute(s); "
                    f"every two locations must differ in at least {MIN_DISTANCE}"
                )
        self.max_roles = max(len(loc.roles) for loc in self.locations)

    def __len__(self) -> int:
        return len(self.locations)

    # Equal sets make equal configurations, which share their tables (actions, masks): compared by value, and
    # hashed once per process (string hashes differ between processes, so the hash is not pickled).
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LocationSet):
            return NotImplemented
        return (self.attributes, self.locations) == (other.attributes, other.locations)

    def __hash__(self) -> int:
        value = self.__dict__.get("_hash")
        if value is None:
            value = self.__dict__["_hash"] = hash((self.attributes, self.locations))
        return value

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state.pop("_hash", None)
        return state


def _check_names(values, what: str) -> tuple[str, ...]:
    if isinstance(values, str):
        raise ValueError(f"{what} must be a sequence of names, not a single string; got {values!r}")
    try:
        names = tuple(values)
    except TypeError:
        raise ValueError(f"{what} must be a sequence of names; got {values!r}") from None
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"{what} must be non-empty strings; got {name!r}")
    if len(set(names)) != len(names):
        duplicates = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"{what} must be distinct; repeated: {duplicates}")
    return names


def _check_attributes(attributes) -> tuple[str, ...]:
    names = _check_names(attributes, "attributes")
    if not names:
        raise ValueError("attributes must name at least one attribute")
    return names


def _check_locations(locations, attributes: tuple[str, ...], num_players: int) -> tuple[Location, ...]:
    if isinstance(locations, (str, bytes)) or not hasattr(locations, "__iter__"):
        raise ValueError(f"locations must be a sequence of Location(name, roles, attributes); got {locations!r}")
    checked = []
    for entry in locations:
        if isinstance(entry, (str, bytes)) or not hasattr(entry, "__len__") or len(entry) != 3:
            raise ValueError(f"each location must be Location(name, roles, attributes); got {entry!r}")
        name, roles, true_attributes = entry
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"a location name must be a non-empty string; got {name!r}")
        roles = _check_names(roles, f"the roles of {name!r}")
        if len(roles) < num_players - 1:
            raise ValueError(
                f"location {name!r} has {len(roles)} roles; {num_players} players need at least {num_players - 1} "
                "(one distinct role for each non-spy)"
            )
        true_attributes = _check_names(true_attributes, f"the attributes of {name!r}")
        unknown = [a for a in true_attributes if a not in attributes]
        if unknown:
            raise ValueError(
                f"location {name!r} names attribute(s) {unknown} that are not in attributes; "
                "pass attributes=... listing every attribute the locations use"
            )
        checked.append(Location(name, roles, frozenset(true_attributes)))
    names = [loc.name for loc in checked]
    if len(set(names)) != len(names):
        repeated = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"location names must be distinct; repeated: {repeated}")
    if len(checked) < 2:
        raise ValueError(f"locations must hold at least 2 locations; got {len(checked)}")
    return tuple(checked)
