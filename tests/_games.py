"""Small hand-written game definitions the tests share."""


class Coordination:
    """Both players win together: not zero-sum."""

    name = "coordination"

    def initial_state(self):
        return self

    def is_terminal(self):
        return False

    def current_player(self):
        return 0

    def legal_actions(self):
        return ("a", "b")

    def child(self, action):
        return Ending(action)

    def infoset_key(self):
        return "only"

    def history(self):
        return ""


class Ending:
    def __init__(self, move):
        self.move = move

    def is_terminal(self):
        return True

    def returns(self):
        return (1.0, 1.0) if self.move == "a" else (0.0, 0.0)

    def history(self):
        return self.move
