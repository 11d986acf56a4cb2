package io.pdgateway.core.cache;

/** A doubly linked list of one view's {@link TreeEntry}s, oldest first. Not thread-safe. */
final class EntryList {
    TreeEntry head;
    TreeEntry tail;

    /** Makes the entry the newest. */
    void append(TreeEntry e) {
        e.prev = tail;
        e.next = null;
        if (tail == null) {
            head = e;
        } else {
            tail.next = e;
        }
        tail = e;
    }

    /** Puts {@code e} just before {@code at} (one step older). */
    void insertBefore(TreeEntry at, TreeEntry e) {
        e.next = at;
        e.prev = at.prev;
        if (at.prev == null) {
            head = e;
        } else {
            at.prev.next = e;
        }
        at.prev = e;
    }

    void unlink(TreeEntry e) {
        if (e.prev == null) {
            head = e.next;
        } else {
            e.prev.next = e.next;
        }
        if (e.next == null) {
            tail = e.prev;
        } else {
            e.next.prev = e.prev;
        }
        e.prev = null;
        e.next = null;
    }
}
