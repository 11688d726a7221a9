"""The identity service (a Keystone v3 subset): tokens, catalog, projects, users, roles,
trusts."""
