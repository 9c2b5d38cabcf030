package io.tributary.encoding;

import io.tributary.otlp.Signal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The encodings on the classpath ({@link RecordEncoding}, found with {@link ServiceLoader}): the
 * built-in ones and any a user's jar adds, looked up by the names users write.
 */
public final class Encodings {

    private Encodings() {}

    /** Every encoding the class loaders of this thread and of this class find, the built-in ones first. */
    public static List<RecordEncoding> all() {
        List<RecordEncoding> out = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        for (ClassLoader loader : new ClassLoader[] {Encodings.class.getClassLoader(), context}) {
            if (loader == null) {
                continue;
            }
            try {
                for (RecordEncoding e : ServiceLoader.load(RecordEncoding.class, loader)) {
                    if (!seen.contains(e.getClass().getName())) {
                        seen.add(e.getClass().getName());
                        out.add(e);
                    }
                }
            } catch (ServiceConfigurationError e) {
                throw new IllegalStateException("an encoding on the classpath cannot be loaded: " + e.getMessage(), e);
            }
        }
        return out;
    }

    /**
     * A decoder of {@code name} records of {@code signal}.
     *
     * @throws IllegalArgumentException when no encoding of the signal has that name, saying which
     *     names the signal takes (the caller adds the setting's key)
     */
    public static RecordDecoder decoder(String name, Signal signal) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        List<String> names = new ArrayList<>();
        for (RecordEncoding e : all()) {
            if (!e.signals().contains(signal)) {
                continue;
            }
            RecordDecoder d = e.decoder(n, signal);
            if (d != null) {
                return d;
            }
            for (String s : e.names()) {
                names.add(s.endsWith("_*") ? s.substring(0, s.length() - 1) + "<charset>" : s);
            }
        }
        for (RecordEncoding e : all()) {
            if (!e.signals().contains(signal) && e.decoder(n, e.signals().iterator().next()) != null) {
                throw new IllegalArgumentException("'" + name.trim() + "' is an encoding of " + ids(e) + ", not of "
                        + signal.id() + " (" + signal.id() + ": " + String.join(", ", names) + ")");
            }
        }
        throw new IllegalArgumentException("'" + name.trim() + "' is not an encoding of " + signal.id() + " ("
                + String.join(", ", names) + ")");
    }

    private static String ids(RecordEncoding e) {
        List<String> ids = new ArrayList<>();
        for (Signal s : e.signals()) {
            ids.add(s.id());
        }
        return String.join(" and ", ids);
    }
}
