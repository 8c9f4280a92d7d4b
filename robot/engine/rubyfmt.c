// SPDX-License-Identifier: GPL-2.0-only
/*
 * rubyfmt.c: Ruby's float formatting, as a correction on top of glibc.
 *
 * Ruby's dtoa (modes 2 and 3, used by %g and %f) first tries to produce the
 * digits with double arithmetic, tracking an error bound eps; when the
 * remainder after the last digit is within eps of one half, Ruby's copy of
 * dtoa treats it as an exact half: it rounds an odd last digit up and
 * leaves an even one alone.  In every other case its answer is the
 * correctly rounded one, which glibc's printf gives too.
 *
 * So this file replays only the quick estimate, step for step (the same
 * estimate of the decimal exponent, the same scaling by powers of ten, the
 * same bound), to spot that ambiguous case; there it builds the digits
 * Ruby chooses and hands glibc a double that prints as exactly those
 * digits.  The rest of the formatting (width, sign, exponent style of %g)
 * stays glibc's.
 */
#include "robot/util/common.h"
#include "robot/engine/rubyfmt.h"

#include <math.h>

#define QUICK_MAX 14 /* the most digits the quick estimate produces */

static const double tens[] = { 1e0,  1e1,  1e2,	 1e3,  1e4,  1e5,  1e6,	 1e7,
			       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
			       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
static const double bigtens[] = { 1e16, 1e32, 1e64, 1e128, 1e256 };

/*
 * dtoa's first guess of floor(log10(d)) from the binary exponent, and
 * whether it still needs checking (k_check).
 */
static int estimate_k(double d, int *k_check)
{
	int e2;
	double m = frexp(d, &e2) * 2; /* d = m * 2^(e2 - 1), m in [1, 2) */
	double ds = (m - 1.5) * 0.289529654602168 + 0.1760912590558 +
		    (e2 - 1) * 0.301029995663981;
	int k = (int)ds;

	if (ds < 0. && ds != k)
		k--;
	*k_check = 1;
	if (k >= 0 && k <= 22) {
		if (d < tens[k])
			k--;
		*k_check = 0;
	}
	return k;
}

/* Scales d by 10^-k as dtoa's quick path does; counts the roundings. */
static double scale(double d, int k, int *ieps)
{
	int i = 0, j;

	if (k > 0) {
		double ds = tens[k & 0xf];

		j = k >> 4;
		if (j & 0x10) {
			j &= 0xf;
			d /= bigtens[4];
			(*ieps)++;
		}
		for (; j; j >>= 1, i++)
			if (j & 1) {
				(*ieps)++;
				ds *= bigtens[i];
			}
		d /= ds;
	} else if (k < 0) {
		d *= tens[-k & 0xf];
		for (j = -k >> 4; j; j >>= 1, i++)
			if (j & 1) {
				(*ieps)++;
				d *= bigtens[i];
			}
	}
	return d;
}

/*
 * Replays the quick estimate for d > 0.  Returns 0 when it decides, as
 * glibc would.  In the ambiguous case it returns 1 with Ruby's digits in
 * `digits` (NUL-terminated) and the decimal exponent in *decpt (value =
 * 0.DIGITS * 10^decpt), or 2 when Ruby also keeps the trailing zeros of
 * those digits, which %g then shows: its exact pass leaves them when the
 * true remainder is above one half (the round-up branch, which an even
 * digit leaves alone) and always for integers.
 */
static int ruby_half(double d, int mode3, int ndigits, char *digits, int *decpt)
{
	int k_check, k = estimate_k(d, &k_check), ieps = 2, ilim, ilim1, i;
	double eps, d0 = d;

	if (mode3) {
		ilim = ndigits + k + 1;
		ilim1 = ilim - 1;
	} else {
		ilim = ilim1 = ndigits <= 0 ? 1 : ndigits;
	}
	if (ilim < 0 || ilim > QUICK_MAX || abs(k) > 300)
		return 0;
	d = scale(d, k, &ieps);
	if (k_check && d < 1. && ilim > 0) {
		if (ilim1 <= 0)
			return 0;
		ilim = ilim1;
		k--;
		d *= 10.;
		ieps++;
	}
	eps = ldexp(ieps * d + 7., -52);
	if (ilim == 0)
		return 0; /* decided exactly, or by the exact path */
	eps *= tens[ilim - 1];
	for (i = 1;; i++, d *= 10.) {
		long l = (long)d;

		if (!(d -= l))
			ilim = i;
		digits[i - 1] = (char)('0' + l);
		if (i == ilim)
			break;
	}
	digits[ilim] = '\0';
	if (d > 0.5 + eps || d < 0.5 - eps)
		return 0;
	/* the ambiguous case: half to even on the last digit */
	*decpt = k + 1;
	if (!((digits[ilim - 1] - '0') & 1)) {
		char exact[QUICK_MAX + 16];

		/*
		 * An integer goes through dtoa's small-integer pass, which
		 * never trims; otherwise the bignum pass keeps the zeros
		 * only when the true remainder exceeds 1/2, which glibc's
		 * exact rounding tells.
		 */
		if (d0 == floor(d0) && d0 < 1e15)
			return 2;
		snprintf(exact, sizeof(exact), "%.*e", ilim - 1, d0);
		return exact[0] != digits[0] || strncmp(exact + 2, digits + 1,
							(size_t)ilim - 1)
			       ? 2
			       : 1;
	}
	{
		for (i = ilim - 1; i >= 0 && digits[i] == '9'; i--)
			digits[i] = '0';
		if (i < 0) {
			memmove(digits + 1, digits, (size_t)ilim + 1);
			digits[0] = '1';
			k++;
		} else {
			digits[i]++;
		}
	}
	*decpt = k + 1;
	return 1;
}

void rubyfmt(struct strbuf *out, const char *flags, int width, int prec,
	     char conv, double v)
{
	char digits[QUICK_MAX + 3];
	int decpt, keep = 0, plus = strchr(flags, '+') != NULL;

	if (isnan(v) || isinf(v)) {
		const char *s = isnan(v) ? "NaN" : "Inf";

		strbuf_addf(out, "%*s%s",
			    width - (int)strlen(s) - (plus || v < 0 ? 1 : 0),
			    "", plus && !(v < 0) ? "+" : (v < 0 ? "-" : ""));
		strbuf_addstr(out, s);
		return;
	}
	if (v != 0 &&
	    (keep = ruby_half(fabs(v), conv == 'f', prec, digits, &decpt))) {
		char buf[64];

		snprintf(buf, sizeof(buf), "%s0.%se%d", v < 0 ? "-" : "",
			 digits, decpt);
		v = strtod(buf, NULL);
	}
	if (conv == 'f')
		strbuf_addf(out, plus ? "%+*.*f" : "%*.*f", width, prec, v);
	else if (keep == 2)
		strbuf_addf(out, plus ? "%+#*.*g" : "%#*.*g", width, prec, v);
	else
		strbuf_addf(out, plus ? "%+*.*g" : "%*.*g", width, prec, v);
}

void rubyfmt_trunc(struct strbuf *out, int width, double v)
{
	if (!isfinite(v))
		rubyfmt(out, "", width, 0, 'f', v);
	else if (fabs(v) < 9.2e18)
		strbuf_addf(out, "%*lld", width, (long long)v);
	else
		strbuf_addf(out, "%*.0f", width, trunc(v));
}
