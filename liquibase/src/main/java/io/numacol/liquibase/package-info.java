/**
 * Liquibase's database for numacol: Liquibase finds {@link io.numacol.liquibase.NumacolDatabase}
 * through its service file ({@code META-INF/services/liquibase.database.Database}) and uses it for
 * every connection whose database product is numacol. Without it Liquibase found no database of
 * its own for numacol, logged "Unknown database: numacol" as a WARNING on every run and went on
 * with its generic one, whose SQL numacol runs; this database is that generic one under numacol's
 * name, so migrations run as they did, without the warning.
 */
package io.numacol.liquibase;
