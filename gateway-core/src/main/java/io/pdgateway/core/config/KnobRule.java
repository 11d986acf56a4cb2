package io.pdgateway.core.config;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * How one knob's value is read and checked, from the environment (text) and from a profile's routingConfig (a JSON
 * value). A value that breaks the rule yields null and the caller keeps the default with a warning (upstream's env
 * loader does the same), unless the knob is fatal.
 */
public interface KnobRule<T> {
    /** The value of an environment variable, or null when it breaks the rule. */
    T fromText(String text);

    /** The value of a routingConfig field, or null when it breaks the rule (numbers must be JSON numbers there). */
    T fromJson(Object json);

    /** What a valid value looks like, completing "X=v ... ; using default" (e.g. "must be a positive number"). */
    String requirement();

    /** A finite number > 0. */
    static KnobRule<Double> positive() {
        return number(v -> v > 0, "must be a positive number");
    }

    /** A finite number ≥ 0 (0 disables a timeout). */
    static KnobRule<Double> nonNegative() {
        return number(v -> v >= 0, "must be a number >= 0");
    }

    /** A number within [min, max]. */
    static KnobRule<Double> within(double min, double max) {
        return number(v -> v >= min && v <= max, "must be within " + min + ".." + max);
    }

    /** An integer within [min, max). */
    static KnobRule<Integer> integerBelow(int min, int limit) {
        return new KnobRule<>() {
            @Override
            public Integer fromText(String text) {
                try {
                    int value = Integer.parseInt(text);
                    return value >= min && value < limit ? value : null;
                } catch (NumberFormatException e) {
                    return null;
                }
            }

            @Override
            public Integer fromJson(Object json) {
                return json instanceof Integer i && i >= min && i < limit ? i : null;
            }

            @Override
            public String requirement() {
                return "must be an integer in [" + min + ", " + limit + ")";
            }
        };
    }

    /** "true"/"1" or "false"/"0", any case. */
    static KnobRule<Boolean> bool() {
        return new KnobRule<>() {
            @Override
            public Boolean fromText(String text) {
                if (text.equalsIgnoreCase("true") || text.equals("1")) {
                    return true;
                }
                if (text.equalsIgnoreCase("false") || text.equals("0")) {
                    return false;
                }
                return null;
            }

            @Override
            public Boolean fromJson(Object json) {
                return json instanceof Boolean b ? b : null;
            }

            @Override
            public String requirement() {
                return "is not a boolean";
            }
        };
    }

    /** Any text, as given (trimmed). */
    static KnobRule<String> text() {
        return new KnobRule<>() {
            @Override
            public String fromText(String text) {
                return text;
            }

            @Override
            public String fromJson(Object json) {
                return json instanceof String s && !s.isBlank() ? s.trim() : null;
            }

            @Override
            public String requirement() {
                return "must be text";
            }
        };
    }

    /**
     * A prefill-time model's coefficients: three numbers >= 0 separated by commas ("20,0.021,4e-7": ms, ms per token,
     * ms per token²), as text or a JSON array of three numbers.
     */
    static KnobRule<io.pdgateway.core.predict.PrefillTimeModel.Coefficients> coefficients() {
        KnobRule<double[]> triple = triple();
        return new KnobRule<>() {
            @Override
            public io.pdgateway.core.predict.PrefillTimeModel.Coefficients fromText(String text) {
                return of(triple.fromText(text));
            }

            @Override
            public io.pdgateway.core.predict.PrefillTimeModel.Coefficients fromJson(Object json) {
                return of(triple.fromJson(json));
            }

            @Override
            public String requirement() {
                return triple.requirement();
            }

            private io.pdgateway.core.predict.PrefillTimeModel.Coefficients of(double[] v) {
                return v == null ? null : new io.pdgateway.core.predict.PrefillTimeModel.Coefficients(v[0], v[1], v[2]);
            }
        };
    }

    /** A decode step-time model's coefficients: three numbers >= 0 ("7.2,0.012,4.4e-5": ms, ms per sequence, ms per token). */
    static KnobRule<io.pdgateway.core.predict.DecodeStepModel> decodeCoefficients() {
        KnobRule<double[]> triple = triple();
        return new KnobRule<>() {
            @Override
            public io.pdgateway.core.predict.DecodeStepModel fromText(String text) {
                return of(triple.fromText(text));
            }

            @Override
            public io.pdgateway.core.predict.DecodeStepModel fromJson(Object json) {
                return of(triple.fromJson(json));
            }

            @Override
            public String requirement() {
                return triple.requirement();
            }

            private io.pdgateway.core.predict.DecodeStepModel of(double[] v) {
                return v == null ? null : new io.pdgateway.core.predict.DecodeStepModel(v[0], v[1], v[2]);
            }
        };
    }

    /** Three non-negative numbers separated by commas, as text or a JSON array of three numbers. */
    private static KnobRule<double[]> triple() {
        return new KnobRule<>() {
            @Override
            public double[] fromText(String text) {
                String[] parts = text.split(",");
                if (parts.length != 3) {
                    return null;
                }
                double[] values = new double[3];
                try {
                    for (int i = 0; i < 3; i++) {
                        values[i] = Double.parseDouble(parts[i].trim());
                        if (!(values[i] >= 0) || Double.isInfinite(values[i])) {
                            return null;
                        }
                    }
                } catch (NumberFormatException e) {
                    return null;
                }
                return values;
            }

            @Override
            public double[] fromJson(Object json) {
                if (json instanceof java.util.List<?> list && list.size() == 3) {
                    double[] values = new double[3];
                    for (int i = 0; i < 3; i++) {
                        if (!(list.get(i) instanceof Number n) || !(n.doubleValue() >= 0)
                                || Double.isInfinite(n.doubleValue())) {
                            return null;
                        }
                        values[i] = n.doubleValue();
                    }
                    return values;
                }
                return json instanceof String text ? fromText(text) : null;
            }

            @Override
            public String requirement() {
                return "must be three numbers >= 0, comma-separated";
            }
        };
    }

    /** One of a closed set of names, looked up by {@code named} (which decides about case). */
    static <E> KnobRule<E> oneOf(Function<String, Optional<E>> named, List<String> names) {
        return new KnobRule<>() {
            @Override
            public E fromText(String text) {
                return named.apply(text.toLowerCase(Locale.ROOT)).orElse(null);
            }

            @Override
            public E fromJson(Object json) {
                return json == null ? null : named.apply(json.toString().trim().toLowerCase(Locale.ROOT)).orElse(null);
            }

            @Override
            public String requirement() {
                return "is not one of " + names;
            }
        };
    }

    private static KnobRule<Double> number(java.util.function.DoublePredicate valid, String requirement) {
        return new KnobRule<>() {
            @Override
            public Double fromText(String text) {
                try {
                    double value = Double.parseDouble(text);
                    return Double.isFinite(value) && valid.test(value) ? value : null;
                } catch (NumberFormatException e) {
                    return null;
                }
            }

            @Override
            public Double fromJson(Object json) {
                return json instanceof Number n && Double.isFinite(n.doubleValue()) && valid.test(n.doubleValue())
                        ? n.doubleValue() : null;
            }

            @Override
            public String requirement() {
                return requirement;
            }
        };
    }
}
