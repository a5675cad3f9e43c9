//! The view layer's plumbing: snabbdom's `patch` with the modules the views
//! use (classes, properties, attributes, styles, event listeners).
import { attributesModule, classModule, eventListenersModule, init, propsModule, styleModule } from 'snabbdom';

/** Patches a real element or an old vnode into a new vnode, touching only what changed. */
export const patch = init([classModule, propsModule, attributesModule, styleModule, eventListenersModule]);
