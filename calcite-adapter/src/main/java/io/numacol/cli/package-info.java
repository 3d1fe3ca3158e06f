/** The launcher's main job ({@code src/bin/numacol}). */
package io.numacol.cli;
