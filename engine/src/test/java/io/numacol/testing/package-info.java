/** What every engine test runs under: checks registered for all test classes through the service loader. */
package io.numacol.testing;
