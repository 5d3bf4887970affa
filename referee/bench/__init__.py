"""Benchmarks that print figures (never timed assertions): `referee bench ...`."""

import os
import uuid

KEY = os.environ.get("REFEREE_KEY") or "rk_bench-" + uuid.uuid4().hex + uuid.uuid4().hex
"""The account key benchmarks create matches with: $REFEREE_KEY (a service you point them
at), else one made up here and given to the servers they start (REFEREE_ORGANISER_KEY), since
a deployment has no anonymous writes."""

AUTH = {"Authorization": f"Bearer {KEY}"}
