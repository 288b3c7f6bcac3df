"""The official checker as the oracle: mlcommons/storage v2.0's own
mlpstorage/rules.py (commit caa90c9) judges every row of the override table
in t/unit/test_ml_verdicts.c, and its verdict must be the row's checker
verdict (which the unit test holds storbench's verdict to).  The code comes
from $SB_MLPSTORAGE_SRC (a tree with mlpstorage/ and configs/), else from
the fetched mirror /work/.mirror/mlcommons+storage/repo (git archive); the
test skips when neither is there or /usr/bin/python3 cannot import it
(it needs yaml and psutil)."""
import os
import re
import subprocess
import tempfile
import unittest

from sbtest import SRC

COMMIT = "caa90c9"
MIRROR = "/work/.mirror/mlcommons+storage/repo"
NAMES = {"C": "closed", "O": "open", "I": "invalid"}

ORACLE = r'''
import json, sys, yaml
sys.path.insert(0, sys.argv[1])
from mlpstorage.rules import TrainingRulesChecker
from mlpstorage.config import PARAM_VALIDATION

class Log:
    def __getattr__(self, name):
        return lambda *a, **k: None

class Run:
    pass

def nested_set(d, dotted, value):
    keys = dotted.split(".")
    for k in keys[:-1]:
        if not isinstance(d.get(k), dict):   # computation_time: 0.323 -> its dict form
            d[k] = {} if d.get(k) is None else {"mean": d[k]}
        d = d[k]
    d[keys[-1]] = value

out = []
for model, param, value in json.load(sys.stdin):
    with open("%s/configs/dlio/workload/%s_h100.yaml" % (sys.argv[1], model)) as f:
        params = yaml.safe_load(f)
    r = Run()
    r.model, r.command, r.parameters = model, "run_benchmark", params
    r.override_parameters = {}
    if param:
        # as _process_benchmark_result reads overrides.yaml (rules.py:413-416)
        r.override_parameters[param] = value
        nested_set(params, param, yaml.safe_load(value) if value not in ("off", "on") else value)
    c = TrainingRulesChecker(r, Log())
    issues = []
    # the checks the override decides (check_num_files_train needs the
    # cluster's memory: storbench's dataset_size rule, tested apart)
    for m in (c.check_allowed_params, c.check_workflow_parameters, c.check_odirect_supported_model):
        i = m()
        issues += i if isinstance(i, list) else [i] if i else []
    v = [i.validation for i in issues]
    # BenchmarkRunVerifier.verify, rules.py:655-662
    out.append("invalid" if PARAM_VALIDATION.INVALID in v else
               "open" if PARAM_VALIDATION.OPEN in v else "closed")
print(json.dumps(out))
'''


def table():
    with open(os.path.join(SRC, "t", "unit", "test_ml_verdicts.c")) as f:
        text = f.read()
    body = text.split("ORACLE-TABLE-BEGIN")[1].split("ORACLE-TABLE-END")[0]
    rows = re.findall(r'\{\s*"([^"]*)",\s*"((?:[^"\\]|\\.)*)",\s*"([^"]*)",\s*"([^"]*)",\s*([CIO]),\s*([CIO])\s*\}',
                      body)
    return [(m, j, p, v, NAMES[c], NAMES[g]) for m, j, p, v, c, g in rows]


class OfficialCheckerOracleTest(unittest.TestCase):
    def source(self):
        src = os.environ.get("SB_MLPSTORAGE_SRC")
        if src:
            return src
        if not os.path.isdir(MIRROR):
            self.skipTest("no mlcommons/storage tree: set SB_MLPSTORAGE_SRC or fetch the mirror")
        d = tempfile.mkdtemp(prefix="sb-mlps-")
        self.addCleanup(subprocess.run, ["rm", "-rf", d])
        a = subprocess.run("git -C %s archive %s mlpstorage configs | tar -x -C %s" % (MIRROR, COMMIT, d),
                           shell=True, capture_output=True, text=True)
        if a.returncode:
            self.skipTest("cannot extract %s from the mirror: %s" % (COMMIT, a.stderr.strip()))
        return d

    def test_table_is_60_rows(self):
        self.assertGreaterEqual(len(table()), 60)

    def test_official_verdicts_equal_the_table(self):
        import json
        src = self.source()
        py = "/usr/bin/python3"
        probe = subprocess.run([py, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                                "import mlpstorage.rules", src], capture_output=True, text=True)
        if probe.returncode:
            self.skipTest("cannot import mlpstorage.rules: %s" % probe.stderr.strip()[-200:])
        rows = table()
        p = subprocess.run([py, "-c", ORACLE, src], input=json.dumps([[m, p, v] for m, _, p, v, _, _ in rows]),
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        got = json.loads(p.stdout)
        bad = ["%s %r -> %s=%s: official %s, table %s" % (m, j, pa, v, o, c)
               for (m, j, pa, v, c, _), o in zip(rows, got) if o != c]
        self.assertEqual(bad, [])


if __name__ == "__main__":
    unittest.main()
