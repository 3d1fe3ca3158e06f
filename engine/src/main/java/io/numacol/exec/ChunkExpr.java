package io.numacol.exec;

import io.numacol.storage.ColumnType;
import io.numacol.storage.StorageKind;

/**
 * One output column of a {@link PlanNode.Project}: an input column, a constant, or arithmetic
 * that {@link NumericKernel} computes a chunk at a time. {@code type} is what the column holds:
 * a computed exact number is stored as a long at its expression's scale, an approximate one as a
 * double.
 */
public sealed interface ChunkExpr {

    ColumnType type();

    record Column(int column, ColumnType type) implements ChunkExpr {
    }

    /** A stored value of {@code type} (Long, Double or String), or null for NULL. */
    record Constant(Object stored, ColumnType type) implements ChunkExpr {
        public Constant {
            boolean fits = switch (type.storageKind()) {
                case LONG -> stored instanceof Long;
                case DOUBLE -> stored instanceof Double;
                case STRING -> stored instanceof String;
            };
            if (stored != null && !fits) {
                throw new IllegalArgumentException(stored + " is not a stored value of " + type);
            }
        }
    }

    record Numeric(NumericExpr expr, ColumnType type) implements ChunkExpr {
        public Numeric {
            NumericExpr.Type t = expr.type();
            boolean fits = t.approximate() ? type.storageKind() == StorageKind.DOUBLE
                    : type.storageKind() == StorageKind.LONG && type.scale() == t.scale();
            if (!fits) {
                throw new IllegalArgumentException(expr + " computes " + t.name() + ", not " + type);
            }
        }
    }
}
