# A tight, aggressive bot: raise the strongest hands, call a bet with better-than-average ones,
# fold the rest to a bet, check otherwise. (situation.strength is what the hand would win on
# average if nobody bet any more: above 0 is better than average.)
def my_bot(situation):
    if situation.strength > 0.3 and "r" in situation.actions:
        return "raise"
    if situation.facing_bet:
        return "call" if situation.strength > 0 else "fold"
    return "check"
