"""Writes pyarrow/: a Hive-partitioned Parquet dataset as pyarrow (and so
pandas) writes one by default, folder values percent-encoded (New%20York,
Z%C3%BCrich). Run once with pyarrow installed (pip install pyarrow) and
commit the output: the tests read the files, not this script.

    python3 testdata/data2/partitions/make_pyarrow.py
"""
import os
import shutil

import pyarrow as pa
import pyarrow.dataset as ds

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pyarrow")
shutil.rmtree(here, ignore_errors=True)
t = pa.table({
    "v": [1, 2, 3, 4, 5, 6, 7],
    "city": ["New York", "Paris", "a/b", "x:y", "50%", "Zürich", "a+b"],
})
ds.write_dataset(t, here, format="parquet", partitioning=["city"],
                 partitioning_flavor="hive")
