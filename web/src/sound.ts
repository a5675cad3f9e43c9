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

/**
 * Browsers start audio only from a user gesture: the first click or key
 * press creates (or resumes) the audio context, so the computer's moves can
 * be heard later.
 */
export function unlockAudioOnGesture(target: EventTarget = document): void {
  const unlock = () => {
    if (!soundEnabled()) return;
    try {
      ctx ??= new AudioContext();
      if (ctx.state === 'suspended') void ctx.resume();
    } catch {
      // No audio available.
    }
    target.removeEventListener('pointerdown', unlock);
    target.removeEventListener('keydown', unlock);
  };
  target.addEventListener('pointerdown', unlock);
  target.addEventListener('keydown', unlock);
}

/** Plays a sound if enabled and the browser allows audio. */
export function play(sound: Sound): void {
  if (!soundEnabled()) return;
  try {
    ctx ??= new AudioContext();
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
