# The reference values of TestNoncentralitySmallAlpha (results/stats/family_test.go),
# computed with mpmath 1.3 at 30 digits. Run: python3 noncentrality_refs.py (minutes).
# References for noncentrality (planned) and reportedNoncentrality at small df
# and a small alpha, by mpmath at 30 digits.
from mpmath import mp, mpf, pi, sqrt, quad, ncdf, exp, findroot, inf, betainc, beta, sin, cos, atan, gamma, log, loggamma
mp.dps = 30
def tcdf(x, nu):
    if x == 0: return mpf(1)/2
    tail = betainc(nu/2, mpf(1)/2, 0, nu/(nu+x*x), regularized=True)/2
    return 1 - tail if x > 0 else tail
def tquant(p, nu):
    lo, hi = mpf(0), mpf(1)
    while tcdf(hi, nu) < p: lo, hi = hi, hi*2
    for _ in range(60):
        mid = (lo+hi)/2
        if tcdf(mid, nu) < p: lo = mid
        else: hi = mid
    return findroot(lambda x: tcdf(x, nu) - p, (lo, hi), solver='anderson')
def root(f, lo, hi):
    flo = f(lo); fhi = f(hi)
    assert flo < 0 < fhi, (flo, fhi)
    # regula falsi (Illinois), kept inside the bracket, then stopped at a relative 1e-15
    side = 0
    for _ in range(200):
        x = hi - fhi*(hi-lo)/(fhi-flo)
        fx = f(x)
        if fx < 0:
            lo, flo = x, fx
            if side == -1: fhi /= 2
            side = -1
        else:
            hi, fhi = x, fx
            if side == 1: flo /= 2
            side = 1
        if hi - lo < mpf('1e-15')*hi or abs(fx) < mpf('1e-25'): return x
    return x
def pts(xs, hi=inf):
    return sorted(set(x for x in xs if 0 <= x <= hi))
def planned(df, alpha):
    tc = tquant(1 - alpha/2, df)
    k = sqrt(df)
    def fchi(r):  # density of r = sqrt(V/df), V ~ chi2(df)
        x = r*k
        return k*exp((df-1)*log(x) - x*x/2 - (df/2-1)*log(2) - loggamma(df/2))
    def p(l):
        s = l/tc
        return quad(lambda r: fchi(r)*(ncdf(l-tc*r)+ncdf(-l-tc*r)), pts([0, s/2, s-20/tc, s, s+20/tc, 2*s, inf])) - mpf('0.8')
    return tc, root(p, tc*0.5, tc*3)
def reported(df, alpha, tc):
    # theta: cos^2 ~ Beta(df/2, df/2); rho ~ chi_{2df} integrated in closed form as a t CDF with 2df
    norm = 2/beta(df/2, df/2)
    nu = 2*df
    def p(c):
        th0 = atan(tc/c)
        f = lambda th: norm*(sin(th)*cos(th))**(df-1)*(tcdf(sqrt(2)*(c*sin(th)-tc*cos(th)), nu) + tcdf(sqrt(2)*(-c*sin(th)-tc*cos(th)), nu))
        return quad(f, pts([0, th0/2, th0 - mpf('0.01'), th0, th0 + mpf('0.01'), (th0+pi/2)/2, pi/2], pi/2)) - mpf('0.8')
    return root(p, tc, tc*5)
import sys
for df, alpha in [(mpf(1), mpf('0.05')), (mpf(1), mpf('0.05')/55), (mpf('1.01'), mpf('0.05')/55), (mpf(2), mpf('0.05')/55)]:
    tc, l = planned(df, alpha)
    print(mp.nstr(df, 5), mp.nstr(alpha, 10), 'tc', mp.nstr(tc, 20), 'planned', mp.nstr(l, 20)); sys.stdout.flush()
    c = reported(df, alpha, tc)
    print(mp.nstr(df, 5), mp.nstr(alpha, 10), 'tc', mp.nstr(tc, 20), 'planned', mp.nstr(l, 20), 'reported', mp.nstr(c, 20)); sys.stdout.flush()
