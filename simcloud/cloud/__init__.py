"""The simulated cloud's services: the state machines behind the REST APIs."""
