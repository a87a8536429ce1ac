"""The chain objects algorithms see: rational (:mod:`~exactpte.model.chain`) and parametric
(:mod:`~exactpte.model.parametric`) Markov reward processes, the built-in examples
(:mod:`~exactpte.model.examples`), and the one way back to floats
(:mod:`~exactpte.model.to_float`)."""
