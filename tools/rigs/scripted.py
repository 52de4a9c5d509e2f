"""Rollers for tests, usable on both interpreters."""


class ScriptedRoller:
    """Returns the given faces in order; fails loudly when the script runs out."""

    def __init__(self, faces=()):
        self.faces = list(faces)

    def push(self, *faces):
        self.faces.extend(faces)

    def d6(self):
        if not self.faces:
            raise AssertionError("scripted roller ran out of dice")
        return self.faces.pop(0)


class LcgRoller:
    """A tiny deterministic roller (31-bit LCG) so both interpreters see the same dice."""

    def __init__(self, seed):
        self.state = seed & 0x7FFFFFFF

    def d6(self):
        while True:
            self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
            r = (self.state >> 16) & 7
            if r < 6:
                return r + 1

    def getstate(self):
        return self.state

    def setstate(self, s):
        self.state = s

