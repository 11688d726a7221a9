"""A dependency graph: each node maps to the set of nodes it *requires*.

Leaves require nothing and start a traversal; roots are required by nothing, and the
stack completes when every root has reported.

    deps = Dependencies([('web', 'db'), ('db', None)])
    deps.leaves() == {'db'}; deps.roots() == {'web'}; list(deps) == ['db', 'web']
    deps.required_by('db') == {'web'}
"""

from heat_lite.common import exception


class Dependencies:
    def __init__(self, edges=()):
        self._requires = {}
        self._required_by = {}
        for requirer, required in edges:
            self.add(requirer, required)

    def add(self, requirer, required=None):
        self._requires.setdefault(requirer, set())
        self._required_by.setdefault(requirer, set())
        if required is not None:
            self._requires[requirer].add(required)
            self._requires.setdefault(required, set())
            self._required_by.setdefault(required, set()).add(requirer)

    def __contains__(self, node):
        return node in self._requires

    def __len__(self):
        return len(self._requires)

    def nodes(self):
        return self._requires.keys()

    def requires(self, node):
        return self._requires[node]

    def required_by(self, node):
        return self._required_by[node]

    def leaves(self):
        return {n for n, reqs in self._requires.items() if not reqs}

    def roots(self):
        return {n for n, users in self._required_by.items() if not users}

    def edges(self):
        """(requirer, required) pairs; an isolated node appears as (node, None)."""
        for node, reqs in self._requires.items():
            if reqs:
                for req in reqs:
                    yield node, req
            elif not self._required_by[node]:
                yield node, None

    def graph(self):
        return {n: set(r) for n, r in self._requires.items()}

    def __iter__(self):
        """Nodes in dependency order: everything a node requires comes before it."""
        waiting = {n: len(r) for n, r in self._requires.items()}
        ready = [n for n, count in waiting.items() if count == 0]
        done = 0
        while ready:
            node = ready.pop()
            done += 1
            yield node
            for user in self._required_by[node]:
                waiting[user] -= 1
                if waiting[user] == 0:
                    ready.append(user)
        if done != len(waiting):
            raise exception.CircularDependencyException(cycle=self._cycle_text(waiting))

    def validate(self):
        for _ in self:
            pass

    def _cycle_text(self, waiting):
        stuck = sorted(str(n) for n, count in waiting.items() if count > 0)
        return ", ".join(stuck)

    def __repr__(self):
        return "Dependencies(%r)" % list(self.edges())
