package io.numacol.differential;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A generated SQL fragment: text and child fragments, plus what a shrinker may put in its place.
 * Nodes are immutable; {@link #variants()} lists every tree one step simpler than this one, the
 * biggest cuts first, so that a failing query can be shrunk by trying them in order.
 *
 * <p>A variant need not be valid SQL: one that no longer binds fails in both engines and is not
 * taken, so fragments offer replacements freely (a join its left side, a condition TRUE).
 */
final class Sql {
    static final Sql EMPTY = new Sql(null, List.of(), List.of(), null);

    /** The value type of an expression (a child of the same type may replace it), or null. */
    final String type;
    /** Strings and child fragments, rendered in turn. */
    private final List<Object> pieces;
    /** Simpler fragments that may stand in for this one. */
    private final List<Sql> simpler;
    /** For a list, its separator (its pieces are the items, each of which may be left out); else null. */
    private final String separator;

    private Sql(String type, List<Object> pieces, List<Sql> simpler, String separator) {
        this.type = type;
        this.pieces = pieces;
        this.simpler = simpler;
        this.separator = separator;
    }

    static Sql of(String type, Object... pieces) {
        return new Sql(type, List.of(pieces), List.of(), null);
    }

    static Sql text(Object... pieces) {
        return of(null, pieces);
    }

    static Sql list(String separator, List<Sql> items) {
        return new Sql(null, List.<Object>copyOf(items), List.of(), separator);
    }

    /** This fragment, with these as simpler replacements. */
    Sql or(Sql... replacements) {
        List<Sql> all = new ArrayList<>(simpler);
        all.addAll(Arrays.asList(replacements));
        return new Sql(type, pieces, List.copyOf(all), separator);
    }

    String render() {
        StringBuilder out = new StringBuilder();
        render(out);
        return out.toString();
    }

    private void render(StringBuilder out) {
        for (int i = 0; i < pieces.size(); i++) {
            if (separator != null && i > 0) {
                out.append(separator);
            }
            Object piece = pieces.get(i);
            if (piece instanceof Sql sql) {
                sql.render(out);
            } else {
                out.append(piece);
            }
        }
    }

    /** Trees one step simpler than this: whole-node replacements first, then a child's. */
    List<Sql> variants() {
        List<Sql> out = new ArrayList<>(simpler);
        if (type != null) {
            for (Object piece : pieces) {
                if (piece instanceof Sql child && type.equals(child.type)) {
                    out.add(child);
                }
            }
        }
        if (separator != null && pieces.size() > 1) {
            for (int i = 0; i < pieces.size(); i++) {
                List<Object> fewer = new ArrayList<>(pieces);
                fewer.remove(i);
                out.add(new Sql(type, List.copyOf(fewer), simpler, separator));
            }
        }
        for (int i = 0; i < pieces.size(); i++) {
            if (pieces.get(i) instanceof Sql child) {
                for (Sql variant : child.variants()) {
                    List<Object> changed = new ArrayList<>(pieces);
                    changed.set(i, variant);
                    out.add(new Sql(type, List.copyOf(changed), simpler, separator));
                }
            }
        }
        return out;
    }

    @Override
    public String toString() {
        return render();
    }
}
