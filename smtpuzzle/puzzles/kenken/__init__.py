"""KenKen (a Latin square with arithmetic cages), written with the public modelling API only."""
