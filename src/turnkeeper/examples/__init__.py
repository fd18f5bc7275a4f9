"""Example files that ship with turnkeeper: a party, a site, foes; the demo uses them."""
