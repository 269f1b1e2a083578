"""Search bots: information-set Monte Carlo tree search (``mcts``) over determinized copies
of the game (``determinize``), with rollout policies (``rollout``)."""
