"""Example files that ship with turnkeeper: a party, a site, foes, factions; the demo
uses some of them."""
