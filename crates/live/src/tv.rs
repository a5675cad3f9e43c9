//! TV: which game in progress each channel features. A channel (by speed,
//! Chess960, bots, the computer, or the best of all) features its
//! highest-rated game and keeps it until it ends; then the next best.
//! Pure: the caller lists the games in progress and keeps the [`Tv`].

use std::collections::HashMap;

/// A TV channel, by lichess's key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Channel {
    /// The highest-rated game between people, whatever its speed.
    Best,
    /// Bullet (and ultra-bullet) games between people.
    Bullet,
    /// Blitz games between people.
    Blitz,
    /// Rapid games between people.
    Rapid,
    /// Classical games between people.
    Classical,
    /// Chess960 games between people.
    Chess960,
    /// Games with a bot account.
    Bot,
    /// Games against our computer.
    Computer,
}

impl Channel {
    /// Every channel, in the order lists show them.
    pub const ALL: [Channel; 8] = [
        Channel::Best,
        Channel::Bullet,
        Channel::Blitz,
        Channel::Rapid,
        Channel::Classical,
        Channel::Chess960,
        Channel::Bot,
        Channel::Computer,
    ];

    /// Lichess's key (`best`, `bullet`, …, `chess960`, `bot`, `computer`).
    pub const fn key(self) -> &'static str {
        match self {
            Channel::Best => "best",
            Channel::Bullet => "bullet",
            Channel::Blitz => "blitz",
            Channel::Rapid => "rapid",
            Channel::Classical => "classical",
            Channel::Chess960 => "chess960",
            Channel::Bot => "bot",
            Channel::Computer => "computer",
        }
    }

    /// The channel of a key.
    pub fn from_key(key: &str) -> Option<Channel> {
        Channel::ALL.into_iter().find(|c| c.key() == key)
    }

    /// Whether this channel may feature `game`.
    pub fn shows(self, game: &Candidate) -> bool {
        let people = !game.bot && !game.computer;
        match self {
            Channel::Best => people,
            Channel::Bullet => people && matches!(game.perf, "bullet" | "ultraBullet"),
            Channel::Blitz => people && game.perf == "blitz",
            Channel::Rapid => people && game.perf == "rapid",
            Channel::Classical => people && game.perf == "classical",
            Channel::Chess960 => people && game.perf == "chess960",
            Channel::Bot => game.bot && !game.computer,
            Channel::Computer => game.computer,
        }
    }
}

/// A game in progress, as TV weighs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The game.
    pub id: String,
    /// Lichess's perf key of the game.
    pub perf: &'static str,
    /// Each side's rating at the game's speed (`None`: the computer, or a
    /// player without an account).
    pub ratings: [Option<i64>; 2],
    /// A bot account plays in it.
    pub bot: bool,
    /// Our computer plays in it.
    pub computer: bool,
}

impl Candidate {
    /// What a channel ranks by: the mean of the known ratings (0 with
    /// none).
    pub fn weight(&self) -> i64 {
        let known: Vec<i64> = self.ratings.iter().flatten().copied().collect();
        match known.len() {
            0 => 0,
            n => known.iter().sum::<i64>() / i64::try_from(n).unwrap_or(1),
        }
    }
}

/// The channels' featured games.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tv {
    featured: HashMap<Channel, String>,
}

impl Tv {
    /// Brings every channel up to date with `games` (the games in
    /// progress): a featured game still among them stays; a channel
    /// without one features its heaviest game (the first listed among
    /// equals), or nothing.
    pub fn update(&mut self, games: &[Candidate]) {
        for channel in Channel::ALL {
            let kept = self
                .featured
                .get(&channel)
                .is_some_and(|id| games.iter().any(|g| &g.id == id && channel.shows(g)));
            if kept {
                continue;
            }
            let best =
                games
                    .iter()
                    .filter(|g| channel.shows(g))
                    .fold(None::<&Candidate>, |best, g| match best {
                        Some(b) if b.weight() >= g.weight() => Some(b),
                        _ => Some(g),
                    });
            match best {
                Some(g) => self.featured.insert(channel, g.id.clone()),
                None => self.featured.remove(&channel),
            };
        }
    }

    /// The game `channel` features, if any.
    pub fn featured(&self, channel: Channel) -> Option<&str> {
        self.featured.get(&channel).map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str, perf: &'static str, ratings: [Option<i64>; 2]) -> Candidate {
        Candidate {
            id: id.into(),
            perf,
            ratings,
            bot: false,
            computer: false,
        }
    }

    #[test]
    fn channels_feature_their_best_game_until_it_ends() {
        let mut tv = Tv::default();
        let mut games = vec![
            game("b1", "blitz", [Some(1500), Some(1600)]),
            game("b2", "blitz", [Some(1900), Some(1700)]),
            game("u1", "ultraBullet", [Some(2000), Some(2000)]),
            game("c1", "chess960", [Some(1400), None]),
            Candidate {
                bot: true,
                ..game("t1", "blitz", [Some(2500), Some(2500)])
            },
            Candidate {
                computer: true,
                ..game("a1", "correspondence", [Some(1200), None])
            },
        ];
        tv.update(&games);
        assert_eq!(tv.featured(Channel::Blitz), Some("b2"));
        assert_eq!(tv.featured(Channel::Bullet), Some("u1"));
        assert_eq!(tv.featured(Channel::Best), Some("u1"));
        assert_eq!(tv.featured(Channel::Chess960), Some("c1"));
        assert_eq!(tv.featured(Channel::Bot), Some("t1"));
        assert_eq!(tv.featured(Channel::Computer), Some("a1"));
        assert_eq!(tv.featured(Channel::Rapid), None);
        // A better blitz game starts: the featured one stays while it lasts.
        games.push(game("b3", "blitz", [Some(2200), Some(2200)]));
        tv.update(&games);
        assert_eq!(tv.featured(Channel::Blitz), Some("b2"));
        // It ends: the best of the others.
        games.retain(|g| g.id != "b2");
        tv.update(&games);
        assert_eq!(tv.featured(Channel::Blitz), Some("b3"));
        games.clear();
        tv.update(&games);
        assert_eq!(tv.featured(Channel::Blitz), None);
    }

    #[test]
    fn keys_round_trip_and_weights_ignore_unknown_ratings() {
        for c in Channel::ALL {
            assert_eq!(Channel::from_key(c.key()), Some(c));
        }
        assert_eq!(Channel::from_key("atomic"), None);
        assert_eq!(game("x", "blitz", [Some(1800), None]).weight(), 1800);
        assert_eq!(game("x", "blitz", [None, None]).weight(), 0);
    }
}
