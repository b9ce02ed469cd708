"""compare-verdicts.py A B [IMPL_A [IMPL_B]]: compare the statuses of two
verdicts.json files, rule by rule: every cell of both (default), or the
rules A judged on IMPL_A against B's verdicts on IMPL_B (A may be a slice).
Prints each difference; exit 1 if there is one, or if nothing was compared."""
import json
import sys


def cells(path, impl):
    with open(path) as f:
        doc = json.load(f)
    return {(v["id"], "" if impl else v["impl"]): v["status"]
            for v in doc["verdicts"] if not impl or v["impl"] == impl}


a_path, b_path = sys.argv[1], sys.argv[2]
impl_a = sys.argv[3] if len(sys.argv) > 3 else ""
impl_b = sys.argv[4] if len(sys.argv) > 4 else impl_a
a, b = cells(a_path, impl_a), cells(b_path, impl_b)
keys = set(a) if impl_a else set(a) | set(b)
differ = sorted(k for k in keys if a.get(k) != b.get(k))
for k in differ:
    print("  %s %s: %s vs %s" % (k[0], k[1] or impl_a + "/" + impl_b,
                                 a.get(k, "missing"), b.get(k, "missing")))
print("%d verdicts compared, %d differ" % (len(keys), len(differ)))
sys.exit(1 if differ or not a else 0)
