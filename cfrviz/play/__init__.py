"""Playing the game: archetype bots, head-to-head matches, one hand at a time."""

from .match import Z95, MatchResult, RoundRobin, head_to_head, round_robin

__all__ = ["MatchResult", "RoundRobin", "Z95", "head_to_head", "round_robin"]
