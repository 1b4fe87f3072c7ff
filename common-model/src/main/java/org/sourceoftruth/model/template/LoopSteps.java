package org.sourceoftruth.model.template;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * The iterable of a {@code for} loop: a view of the list that counts each element taken as a
 * step of the render budget. A loop whose body calls nothing (only text) is then bounded too.
 */
final class LoopSteps<E> extends AbstractList<E> implements RandomAccess {

    private final List<E> elements;

    private LoopSteps(List<E> elements) {
        this.elements = elements;
    }

    static <E> List<E> of(List<E> elements) {
        return elements.isEmpty() ? elements : new LoopSteps<>(elements);
    }

    @Override
    public E get(int index) {
        RenderGuard.check();
        return elements.get(index);
    }

    @Override
    public int size() {
        return elements.size();
    }
}
