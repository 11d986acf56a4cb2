package io.pdgateway.server.it;

import java.io.File;

/**
 * File descriptors this JVM holds, from /proc/self/fd (Linux). The gateway, its simulated pods and the test clients
 * share the JVM, so a socket any of them leaks shows here.
 */
final class OpenFiles {
    private static final File FD_DIR = new File("/proc/self/fd");

    private OpenFiles() {}

    static boolean countable() {
        return FD_DIR.isDirectory();
    }

    static int count() {
        String[] entries = FD_DIR.list();
        if (entries == null) {
            throw new IllegalStateException("/proc/self/fd is not readable here");
        }
        return entries.length;
    }
}
