# The reference values of TestStudentTQuantileHugeDF (results/stats/stats_test.go),
# computed with mpmath 1.3 at 50 digits. Run: python3 tquantile_refs.py
# The upper tail is
# 1/2 * I_{nu/(nu+t^2)}(nu/2, 1/2) (mpmath.betainc, regularized), inverted by findroot.
from mpmath import mp, mpf, betainc, findroot
import sys
mp.dps = 50
def upper(t, nu):
    return betainc(nu/2, mpf(1)/2, 0, nu/(nu+t*t), regularized=True)/2
for q, nu, t0 in [(0.025, '1e15', 1.96), (0.025, '1e12', 1.96), (0.025, '1e8', 1.96), (0.025, '1e7', 1.96), (0.025, '1e5', 1.96), (0.025, '99999', 1.96), (0.025, '10001', 1.96), (0.025, '10000', 1.96), (0.0005, '10000', 3.3), (0.2, '1e4', 0.84), (1e-10, '1e4', 6.4), (1e-10, '1e5', 6.4), (1e-10, '1e6', 6.4)]:
    q, nu = mpf(q), mpf(nu)  # q: the float64 upper tail, exactly
    t = findroot(lambda t: upper(t, nu) - q, mpf(t0))
    print(float(q), mp.nstr(nu, 8), mp.nstr(t, 20)); sys.stdout.flush()
