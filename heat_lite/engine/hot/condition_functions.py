"""HOT condition functions and ``if``.

    conditions:
      prod: {equals: [{get_param: env}, prod]}
      big: {and: [prod, {not: {equals: [{get_param: size}, small]}}]}
    ...
    value: {if: [prod, 'db.prod', 'db.dev']}

``not``/``and``/``or`` take condition names, booleans or condition functions; the CFN
forms (``Fn::Equals``, ``Fn::If``, ...) reuse these classes.
"""

from heat_lite.engine import function


class Equals(function.Function):
    """A function for comparing whether two values are equal.

    ``equals: [<value_1>, <value_2>]``.
    """

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        if not self.args or not isinstance(self.args, list) or len(self.args) != 2:
            raise ValueError(
                'Arguments to "%s" must be of the form: [value_1, value_2]' % self.fn_name
            )
        self.value1, self.value2 = self.args

    def result(self):
        return function.resolve(self.value1) == function.resolve(self.value2)


class If(function.Macro):
    """A function to return corresponding value based on condition evaluation.

    ``if: [<condition>, <value_if_true>, <value_if_false>]``, decided when parsed: only
    the chosen branch is parsed (the other may reference disabled resources).
    """

    def _read_args(self):
        if len(self.args) != 3:
            raise ValueError()
        return self.args

    def parse_args(self, parse_func):
        try:
            if not self.args or not function.is_list(self.args):
                raise ValueError()
            condition, if_true, if_false = self._read_args()
        except ValueError:
            raise ValueError(
                'Arguments to "%s" must be of the form: '
                "[condition_name, value_if_true, value_if_false]" % self.fn_name
            )
        cond = self.template.parse_condition(self.stack, condition, self.fn_name)
        enabled = self._get_condition(function.resolve(cond))
        return parse_func(if_true if enabled else if_false)

    def _get_condition(self, cond):
        if isinstance(cond, bool):
            return cond
        return self.template.conditions(self.stack).is_enabled(cond)


class IfNullable(If):
    """A function to return corresponding value based on condition evaluation.

    if from HOT 2021-04-16: without a false branch the item is left out.
    """

    def _read_args(self):
        if len(self.args) == 2:
            return self.args[0], self.args[1], Ellipsis
        return super()._read_args()


class ConditionBoolean(function.Function):
    """Base of not/and/or: arguments are condition names, booleans or functions."""

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        self._check_args()

    def _check_args(self):
        if not function.is_list(self.args):
            raise ValueError('Arguments to "%s" must be a list of conditions' % self.fn_name)
        if len(self.args) < 2:
            raise ValueError(
                'The minimum number of condition arguments to "%s" is 2.' % self.fn_name
            )

    def _get_condition(self, arg):
        if isinstance(arg, bool):
            return arg
        return self.stack.t.conditions(self.stack).is_enabled(arg)


class Not(ConditionBoolean):
    """A function that acts as a NOT operator on a condition.

    ``not: <condition>``.
    """

    def _check_args(self):
        self.condition = self.args
        if self.args is None:
            raise ValueError('Argument to "%s" must be a condition' % self.fn_name)

    def result(self):
        return not self._get_condition(function.resolve(self.condition))


class And(ConditionBoolean):
    """A function that acts as an AND operator on conditions.

    ``and: [<condition>, <condition>, ...]`` (two at least).
    """

    def result(self):
        return all(self._get_condition(c) for c in function.resolve(self.args))


class Or(ConditionBoolean):
    """A function that acts as an OR operator on conditions.

    ``or: [<condition>, <condition>, ...]`` (two at least).
    """

    def result(self):
        return any(self._get_condition(c) for c in function.resolve(self.args))
