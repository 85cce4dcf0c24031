"""The benchmark test module that the plugin parametrizes (collected only with ``--alias-model``)."""
