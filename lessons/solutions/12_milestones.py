my_matches = {"Cepheus": "C",    # CFR+ on the whole of limit hold'em, unabstracted
              "DeepStack": "E",  # continual re-solving with a value network at the depth limit
              "Libratus": "B",   # MCCFR blueprint + nested safe subgame solving + self-improver
              "Pluribus": "A",   # six players, linear MCCFR blueprint, several continuations
              "Deep CFR": "D"}   # networks instead of regret tables
