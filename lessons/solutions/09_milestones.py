my_matches = {"Cepheus": "A",    # CFR+ on the whole of limit hold'em
              "DeepStack": "B",  # continual re-solving with a value network at the depth limit
              "Libratus": "C",   # MCCFR blueprint + nested safe subgame solving + self-improver
              "Pluribus": "D",   # six players, linear MCCFR blueprint, several continuations
              "Deep CFR": "E"}   # networks instead of regret tables
