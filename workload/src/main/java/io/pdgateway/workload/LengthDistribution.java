package io.pdgateway.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A distribution of token lengths for synthetic workloads, written the way the command line takes it:
 * <ul>
 *   <li>{@code 512}: always 512;</li>
 *   <li>{@code 100..2000}: uniform between the two, both included;</li>
 *   <li>{@code lognormal:800:1.0}: log-normal with median 800 and sigma 1.0 (chat prompts look like this);</li>
 *   <li>{@code 0.8*100..500+0.2*4000..16000}: a weighted mix of the above (short chat plus long documents).</li>
 * </ul>
 * Samples are at least 1 and at most {@link #MAX_TOKENS}.
 */
public sealed interface LengthDistribution {
    /** Llama-3.1's context window: no synthetic prompt or completion needs to be longer. */
    int MAX_TOKENS = 131_072;

    int sample(SplittableRandom random);

    static LengthDistribution parse(String spec) {
        String text = spec.trim().toLowerCase(Locale.ROOT);
        try {
            if (text.contains("+") || text.contains("*")) {
                return Mix.parse(text);
            }
            if (text.startsWith("lognormal:")) {
                String[] parts = text.split(":");
                return new LogNormal(Double.parseDouble(parts[1]), Double.parseDouble(parts[2]));
            }
            int range = text.indexOf("..");
            if (range > 0) {
                return new Uniform(Integer.parseInt(text.substring(0, range)), Integer.parseInt(text.substring(range + 2)));
            }
            return new Fixed(Integer.parseInt(text));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("bad length distribution '" + spec + "' (try 512, 100..2000, "
                    + "lognormal:800:1.0 or 0.8*100..500+0.2*4000..16000): " + e.getMessage(), e);
        }
    }

    private static int clamp(double tokens) {
        return (int) Math.max(1, Math.min(MAX_TOKENS, Math.round(tokens)));
    }

    record Fixed(int tokens) implements LengthDistribution {
        public Fixed {
            if (tokens < 1) {
                throw new IllegalArgumentException("length must be >= 1, got " + tokens);
            }
        }

        @Override
        public int sample(SplittableRandom random) {
            return clamp(tokens);
        }

        @Override
        public String toString() {
            return Integer.toString(tokens);
        }
    }

    record Uniform(int min, int max) implements LengthDistribution {
        public Uniform {
            if (min < 1 || max < min) {
                throw new IllegalArgumentException("need 1 <= min <= max, got " + min + ".." + max);
            }
        }

        @Override
        public int sample(SplittableRandom random) {
            return clamp(min + random.nextInt(max - min + 1));
        }

        @Override
        public String toString() {
            return min + ".." + max;
        }
    }

    record LogNormal(double median, double sigma) implements LengthDistribution {
        public LogNormal {
            if (!(median >= 1) || !(sigma >= 0)) {
                throw new IllegalArgumentException("need median >= 1 and sigma >= 0, got " + median + ", " + sigma);
            }
        }

        @Override
        public int sample(SplittableRandom random) {
            // Box-Muller: one standard normal from two uniforms (the second uniform kept away from 0 for the log).
            double u1 = 1.0 - random.nextDouble();
            double normal = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * random.nextDouble());
            return clamp(median * Math.exp(sigma * normal));
        }

        @Override
        public String toString() {
            return "lognormal:" + median + ":" + sigma;
        }
    }

    record Mix(List<Double> weights, List<LengthDistribution> parts) implements LengthDistribution {
        public Mix {
            weights = List.copyOf(weights);
            parts = List.copyOf(parts);
            if (weights.isEmpty() || weights.size() != parts.size() || weights.stream().anyMatch(w -> !(w > 0))) {
                throw new IllegalArgumentException("a mix needs positive weights, one per part");
            }
        }

        static Mix parse(String text) {
            List<Double> weights = new ArrayList<>();
            List<LengthDistribution> parts = new ArrayList<>();
            for (String term : text.split("\\+")) {
                int star = term.indexOf('*');
                if (star < 0) {
                    throw new IllegalArgumentException("mix term '" + term + "' needs WEIGHT*LENGTHS");
                }
                weights.add(Double.parseDouble(term.substring(0, star)));
                LengthDistribution part = LengthDistribution.parse(term.substring(star + 1));
                if (part instanceof Mix) {
                    throw new IllegalArgumentException("mixes do not nest");
                }
                parts.add(part);
            }
            return new Mix(weights, parts);
        }

        @Override
        public int sample(SplittableRandom random) {
            double total = weights.stream().mapToDouble(Double::doubleValue).sum();
            double pick = random.nextDouble() * total;
            for (int i = 0; i < parts.size(); i++) {
                pick -= weights.get(i);
                if (pick < 0) {
                    return parts.get(i).sample(random);
                }
            }
            return parts.get(parts.size() - 1).sample(random);
        }

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < parts.size(); i++) {
                text.append(i == 0 ? "" : "+").append(weights.get(i)).append('*').append(parts.get(i));
            }
            return text.toString();
        }
    }
}
