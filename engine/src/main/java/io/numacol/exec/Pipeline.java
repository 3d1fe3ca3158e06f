package io.numacol.exec;

import io.numacol.scheduler.TaskClass;
import io.numacol.storage.types.ColumnType;

import java.util.ArrayList;
import java.util.List;

/**
 * A source, the operators over it up to the next pipeline breaker, the types of the rows they
 * put out, the class of its tasks' work, and whether it is known to give no row (a probe of an
 * empty build side).
 */
record Pipeline(PipelineSource source, List<PipelineOperator.Factory> operators, List<ColumnType> types,
                TaskClass taskClass, boolean empty) {
    public Pipeline {
        operators = List.copyOf(operators);
        types = List.copyOf(types);
    }

    /** A pipeline of {@code source}'s rows alone. */
    static Pipeline of(PipelineSource source, List<ColumnType> types, TaskClass taskClass) {
        return new Pipeline(source, List.of(), types, taskClass, false);
    }

    Pipeline with(PipelineOperator.Factory operator, List<ColumnType> outTypes, TaskClass taskClass) {
        List<PipelineOperator.Factory> ops = new ArrayList<>(operators);
        ops.add(operator);
        return new Pipeline(source, ops, outTypes, taskClass, empty);
    }

    /** The same pipeline, its tasks of {@code taskClass} (the class of the sink's work, as an aggregate's). */
    Pipeline as(TaskClass taskClass) {
        return new Pipeline(source, operators, types, taskClass, empty);
    }

    /** The same operators over another source. */
    Pipeline over(PipelineSource other) {
        return new Pipeline(other, operators, types, taskClass, empty);
    }

    Pipeline none() {
        return new Pipeline(source, operators, types, taskClass, true);
    }
}
