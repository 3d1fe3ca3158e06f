package io.numacol.flyway;

import org.flywaydb.core.api.configuration.Configuration;
import org.flywaydb.core.internal.parser.Parser;
import org.flywaydb.core.internal.parser.ParsingContext;

/**
 * Splits a migration into statements at its semicolons, as Flyway's generic parser does: numacol
 * has no procedural blocks (no BEGIN ... END bodies, no dollar quoting) whose semicolons would
 * not end a statement, and quotes as standard SQL does.
 */
final class NumacolParser extends Parser {
    /** How many characters the parser looks ahead: enough for the standard SQL it reads. */
    private static final int PEEK_DEPTH = 3;

    NumacolParser(Configuration configuration, ParsingContext parsingContext) {
        super(configuration, parsingContext, PEEK_DEPTH);
    }
}
