//! Short synthesised sounds (WebAudio): no sound files. On/off is remembered.

export type Sound = 'move' | 'capture' | 'check' | 'end' | 'lowTime';

const STORAGE_KEY = 'plyyard.sound';
let ctx: AudioContext | null = null;

/** Is sound switched on (default on)? */
export function soundEnabled(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) !== 'off';
  } catch {
    return true;
  }
}

/** Switches sound on or off and remembers it. */
export function setSoundEnabled(on: boolean): void {
  try {
    localStorage.setItem(STORAGE_KEY, on ? 'on' : 'off');
  } catch {
    // Not remembered when storage is unavailable.
  }
}

const TONES: Record<Sound, Array<[freq: number, start: number, length: number]>> = {
  move: [[520, 0, 0.07]],
  capture: [[360, 0, 0.06], [300, 0.05, 0.08]],
  check: [[660, 0, 0.07], [880, 0.08, 0.09]],
  end: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.2]],
  lowTime: [[988, 0, 0.08], [988, 0.16, 0.08], [988, 0.32, 0.08]],
};

/** Has the visitor pressed a pointer or a key on the page yet? */
let gestured = false;

/**
 * Browsers start audio only from a user gesture: a context created before
 * one stays suspended, with a warning on the console. So nothing is created
 * until the first pointer or key press, which creates (or resumes) the
 * context; the moves heard from then on (a spectator's too) play.
 */
export function unlockAudioOnGesture(target: EventTarget = document): void {
  const unlock = () => {
    gestured = true;
    target.removeEventListener('pointerdown', unlock, true);
    target.removeEventListener('keydown', unlock, true);
    if (!soundEnabled()) return;
    try {
      ctx ??= new AudioContext();
      if (ctx.state === 'suspended') void ctx.resume();
    } catch {
      // No audio available.
    }
  };
  // Captured: the board may stop a press from bubbling.
  target.addEventListener('pointerdown', unlock, true);
  target.addEventListener('keydown', unlock, true);
}

/** Plays a sound if enabled and the browser allows audio (silence before the first gesture). */
export function play(sound: Sound): void {
  if (!soundEnabled() || !gestured) return;
  try {
    ctx ??= new AudioContext();
    if (ctx.state === 'suspended') void ctx.resume();
    const now = ctx.currentTime;
    for (const [freq, start, length] of TONES[sound]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.18, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.02);
    }
  } catch {
    // No audio device or autoplay blocked: silence is fine.
  }
}
