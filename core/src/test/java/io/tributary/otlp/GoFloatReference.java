package io.tributary.otlp;

import com.fasterxml.jackson.core.io.schubfach.DoubleToDecimal;

/**
 * The String formatter {@link GoFloat} replaced, kept as a test oracle: Java's shortest digits
 * (Jackson's copy of the JDK's Schubfach, {@code DoubleToDecimal}), cut to one digit where Java
 * keeps two but Go's shortest has one, laid out by string surgery under pdata's ES6 rule. Checked
 * against Go itself over millions of doubles before it became the oracle.
 */
final class GoFloatReference {

    private GoFloatReference() {}

    /** ES6 rendering of a finite double; NaN and infinities are the caller's concern. */
    static String es6(double v) {
        if (v == 0) {
            return (Double.doubleToRawLongBits(v) < 0) ? "-0" : "0";
        }
        // Java's shortest representation, e.g. "1.0E-7", "123.456", "1.0E21": split it into the
        // significant digits and the decimal exponent, then lay them out the Go way.
        String java = DoubleToDecimal.toString(v);
        boolean negative = java.charAt(0) == '-';
        int start = negative ? 1 : 0;
        int e = java.indexOf('E');
        String mantissa = e < 0 ? java.substring(start) : java.substring(start, e);
        int exp10 = e < 0 ? 0 : Integer.parseInt(java.substring(e + 1));
        int dot = mantissa.indexOf('.');
        String intPart = dot < 0 ? mantissa : mantissa.substring(0, dot);
        String fracPart = dot < 0 ? "" : mantissa.substring(dot + 1);
        StringBuilder digits = new StringBuilder(intPart.length() + fracPart.length());
        digits.append(intPart).append(fracPart);
        // Value = 0.digits... scaled: point sits after intPart.length() digits, times 10^exp10.
        int pointPos = intPart.length() + exp10;
        int lead = 0;
        while (lead < digits.length() - 1 && digits.charAt(lead) == '0') {
            lead++;
        }
        digits.delete(0, lead);
        pointPos -= lead;
        int end = digits.length();
        while (end > 1 && digits.charAt(end - 1) == '0') {
            end--;
        }
        digits.setLength(end);
        if (digits.length() == 2) {
            // Java prefers the closest of the one- and two-digit decimals that round-trip; Go
            // takes the shortest. Use one digit when one does.
            pointPos = shortenToOneDigit(digits, pointPos, Math.abs(v));
        }

        double abs = Math.abs(v);
        StringBuilder out = new StringBuilder(24);
        if (negative) {
            out.append('-');
        }
        if (abs < 1e-6 || abs >= 1e21) {
            out.append(digits.charAt(0));
            if (digits.length() > 1) {
                out.append('.').append(digits, 1, digits.length());
            }
            int x = pointPos - 1;
            out.append('e').append(x < 0 ? '-' : '+');
            int ax = Math.abs(x);
            if (x > 0 && ax < 10) {
                out.append('0'); // Go pads positive exponents to two digits; ES6 range never needs it
            }
            out.append(ax);
        } else if (pointPos <= 0) {
            out.append("0.");
            for (int i = 0; i < -pointPos; i++) {
                out.append('0');
            }
            out.append(digits);
        } else if (pointPos >= digits.length()) {
            out.append(digits);
            for (int i = digits.length(); i < pointPos; i++) {
                out.append('0');
            }
        } else {
            out.append(digits, 0, pointPos).append('.').append(digits, pointPos, digits.length());
        }
        return out.toString();
    }

    private static int shortenToOneDigit(StringBuilder digits, int pointPos, double abs) {
        int a = digits.charAt(0) - '0';
        int b = digits.charAt(1) - '0';
        int exp = pointPos - 1;
        boolean down = Double.parseDouble(a + "e" + exp) == abs;
        boolean up = a < 9
                ? Double.parseDouble((a + 1) + "e" + exp) == abs
                : Double.parseDouble("1e" + (exp + 1)) == abs;
        if (down && (!up || b < 5)) {
            digits.setLength(1);
            return pointPos;
        }
        if (up) {
            digits.setLength(0);
            if (a < 9) {
                digits.append((char) ('0' + a + 1));
                return pointPos;
            }
            digits.append('1');
            return pointPos + 1;
        }
        return pointPos;
    }
}
