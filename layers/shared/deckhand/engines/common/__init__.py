"""What every card game shares: card tokens, shuffles, dealing and the climbing-game plumbing."""
